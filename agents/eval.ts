import { STATUS_CODES } from 'node:http';
import type { Dispatcher } from 'undici';
import { type AssistantMessage, type ChatMessage, complete, type ModelOptions, type ToolCall } from './eval-chat.js';
import { exchange, type Reply } from './http.js';
import { mapInOrder } from './pool.js';
import { type MatrixRun, type MatrixTask, NONE, summarise, whyFailed } from './matrix.js';
import type { Report } from './report.js';
import { listTasks, selectTasks } from './validity.js';

// The eval: a model behind an OpenAI-compatible chat endpoint as the agent, on every selected task and
// condition. Each run is a conversation in its own session: the domain policy as system message, the
// request (then each follow-up) as user messages, the session's listing as the tools, re-read before
// every model request (it may drift), each tool call executed in order and answered with what any
// agent sees (status line and body). The score is the server's.

export type { ChatMessage, ModelOptions } from './eval-chat.js';

/** What the model is told besides the policy. */
export const INSTRUCTION = 'Use the tools to do what the user asks; when you are done, answer the user.';

/** The longest answer the server records (longer ones are cut there). */
const MAX_ANSWER_CHARS = 65_536;

/** A task as the conversation needs it. */
export interface ConversationTask {
  policy: string;
  request: string;
  follow_ups: readonly string[];
}

/** What a conversation talks to: the model, the session's listing and tools, and where answers go. */
export interface ConversationIo {
  complete(messages: readonly ChatMessage[], tools: readonly unknown[]): Promise<AssistantMessage>;
  listing(): Promise<unknown[]>;
  /** One tool call; status 0 when the connection failed without an answer. */
  call(tool: string, args: Record<string, unknown>): Promise<Reply>;
  answer(text: string): Promise<void>;
}

export interface Conversation {
  messages: ChatMessage[];
  /** The final answer of each turn answered. */
  answers: string[];
  /** Model requests per turn. */
  steps: number[];
  /** The turns cut at the step limit (from 1). */
  cut: number[];
  /** Why the conversation stopped before its end (the model endpoint failed, the server refused). */
  error?: string;
}

/** Tool names as the chat API allows them; anything else is not sent to the server. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,128}$/;

/** Headers that carry what a call means to an agent (when to retry, a tool's end of life, a hint); the others are left out. */
const SHOWN_HEADERS = ['retry-after', 'deprecation', 'sunset', 'link', 'x-hint'];

/**
 * The tool message content for a reply, as any agent sees it: the status line, then the body (`HTTP 503
 * Service Unavailable\n<body>`); the headers of SHOWN_HEADERS a reply has go between them, then a blank line.
 */
export function toolResult(reply: Reply): string {
  if (reply.status === 0) return 'Connection failed: the connection closed without a complete HTTP answer.';
  const reason = STATUS_CODES[reply.status];
  const headers = SHOWN_HEADERS.flatMap((name) => {
    const value = reply.headers[name];
    return value === undefined ? [] : [`${name}: ${Array.isArray(value) ? value.join(', ') : value}`];
  });
  return [`HTTP ${reply.status}${reason ? ` ${reason}` : ''}`, ...(headers.length > 0 ? [...headers, ''] : []), reply.text].join('\n');
}

/** The arguments of a tool call as an object, or why they are not one. */
export function parseArguments(text: string): { args: Record<string, unknown> } | { error: string } {
  if (text.trim() === '') return { args: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: `Invalid arguments: not valid JSON (${(error as Error).message}). No call was made; send the arguments as one JSON object.` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { error: 'Invalid arguments: not a JSON object. No call was made; send the arguments as one JSON object.' };
  return { args: value as Record<string, unknown> };
}

/**
 * The turn loop: the request, then each follow-up, as user messages of one conversation. In a turn, each
 * model request gets the listing re-read; its tool calls run in order, each answered by a tool message; a
 * message without tool calls is the turn's final answer. After `maxSteps` requests the turn ends with what
 * the model last said (or nothing). An error (the model endpoint, the server) ends the conversation.
 */
export async function converse(task: ConversationTask, io: ConversationIo, maxSteps: number): Promise<Conversation> {
  const messages: ChatMessage[] = [{ role: 'system', content: `${task.policy.trimEnd()}\n\n${INSTRUCTION}` }];
  const conversation: Conversation = { messages, answers: [], steps: [], cut: [] };
  try {
    for (const [turn, request] of [task.request, ...task.follow_ups].entries()) {
      messages.push({ role: 'user', content: request });
      let said = '';
      let final: string | undefined;
      let steps = 0;
      while (final === undefined && steps < maxSteps) {
        steps += 1;
        conversation.steps[turn] = steps;
        const message = await io.complete(messages, await io.listing());
        messages.push(message);
        if (message.content?.trim()) said = message.content;
        if (!message.tool_calls) final = message.content ?? '';
        for (const call of message.tool_calls ?? []) messages.push({ role: 'tool', tool_call_id: call.id, content: await execute(io, call) });
      }
      if (final === undefined) conversation.cut.push(turn + 1);
      const text = (final ?? said).slice(0, MAX_ANSWER_CHARS);
      await io.answer(text);
      conversation.answers.push(text);
    }
  } catch (error) {
    conversation.error = (error as Error).message;
  }
  return conversation;
}

async function execute(io: ConversationIo, call: ToolCall): Promise<string> {
  const { name } = call.function;
  if (!TOOL_NAME.test(name)) return `Unknown tool ${JSON.stringify(name)}: no call was made; call a tool of the listing.`;
  const parsed = parseArguments(call.function.arguments);
  if ('error' in parsed) return parsed.error;
  return toolResult(await io.call(name, parsed.args));
}

/** A task as GET /tasks/{domain}/{number} answers it. */
export interface EvalTask extends MatrixTask, ConversationTask {}

/** One model run: a matrix cell (the model as the agent) with its conversation's outcome. */
export interface EvalRun extends MatrixRun {
  session: string;
  answers: string[];
  steps: number[];
  cut: number[];
  messages: ChatMessage[];
}

/**
 * The session id of an eval run: fixed and readable, so that reruns draw the same hazards; with the model's
 * name in it, so that evals of two models against one server keep to their own sessions.
 */
export const evalSession = (task: string, condition: string, model = '') =>
  `e.${model ? `${modelSlug(model).replaceAll('.', '-').slice(0, 16).replace(/-+$/, '')}.` : ''}${task.replace('/', '.')}.${condition}`;

async function ok(reply: Reply, what: string): Promise<any> {
  if (reply.status < 200 || reply.status >= 300) throw new Error(`${what} answered ${reply.status}: ${reply.text.slice(0, 300)}`);
  return reply.body;
}

export interface EvalOptions {
  /** Model requests per turn at most (default 30). */
  maxSteps?: number;
  /** Keep the sessions afterwards (default: deleted once scored). */
  keep?: boolean;
}

/** How one run's session is set up, when not by its condition alone (repeated runs under several kinds at once). */
export interface RunSetup {
  session: string;
  /** The targeted kinds switched on. */
  kinds: readonly string[];
  seed?: string;
  hazard_rate?: number;
}

/**
 * Runs the model on one task under one condition (`none` or a targeted kind) in a new session, or as
 * `setup` says; never throws.
 */
export async function runModel(
  dispatcher: Dispatcher,
  base: string,
  task: EvalTask,
  condition: string,
  model: ModelOptions,
  options: EvalOptions = {},
  setup?: RunSetup,
): Promise<EvalRun> {
  const session = setup?.session ?? evalSession(task.id, condition, model.model);
  const hazards = setup
    ? {
        kinds: setup.kinds,
        ...(setup.seed === undefined ? {} : { seed: setup.seed }),
        ...(setup.hazard_rate === undefined ? {} : { hazard_rate: setup.hazard_rate }),
      }
    : { kinds: condition === NONE ? [] : [condition] };
  const send = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) => exchange(dispatcher, base, method, path, body);
  const run: EvalRun = {
    task: task.id,
    domain: task.domain,
    condition,
    agent: model.model,
    success: false,
    score: null,
    journal: [],
    session,
    answers: [],
    steps: [],
    cut: [],
    messages: [],
  };
  try {
    // A session left over by an interrupted run of the same cell would refuse the id.
    await send('DELETE', `/sessions/${session}`);
    await ok(await send('POST', '/sessions', { id: session, task: task.id, ...hazards }), 'POST /sessions');
    const conversation = await converse(
      task,
      {
        complete: (messages, tools) => complete(dispatcher, model, messages, tools),
        listing: async () => ok(await send('GET', `/s/${session}/${task.domain}/tools?format=openai`), 'GET the listing'),
        call: (tool, args) => send('POST', `/s/${session}/${task.domain}/tools/${tool}`, args),
        answer: async (text) => void (await ok(await send('POST', `/sessions/${session}/answer`, { text }), 'POST /sessions/{id}/answer')),
      },
      options.maxSteps ?? 30,
    );
    Object.assign(run, { answers: conversation.answers, steps: conversation.steps, cut: conversation.cut, messages: conversation.messages });
    if (conversation.error !== undefined) run.error = conversation.error;
    run.score = await ok(await send('GET', `/sessions/${session}/score`), 'GET /sessions/{id}/score');
    run.journal = await ok(await send('GET', `/sessions/${session}/journal`), 'GET /sessions/{id}/journal');
    run.success = run.error === undefined && run.score.success === true;
  } catch (error) {
    run.error ??= (error as Error).message;
  }
  if (!options.keep) await send('DELETE', `/sessions/${session}`).catch(() => undefined);
  return run;
}

/**
 * The conditions a task runs under for the chosen kinds: `none` for the hazard-free run, `all` for each
 * kind the task targets, or kinds by name (those the task does not target are left out).
 */
export function evalConditions(task: MatrixTask, kinds: readonly string[]): string[] {
  const targeted = [...new Set(task.targets.map((target) => target.kind))];
  const wanted = new Set(kinds);
  return [...(wanted.has(NONE) ? [NONE] : []), ...targeted.filter((kind) => wanted.has('all') || wanted.has(kind))];
}

export interface SuiteOptions extends EvalOptions {
  /** Task patterns (`retail/*`, an exact id); every task without one. */
  patterns?: readonly string[];
  /** `none`, `all` and kind names (default none and all). */
  kinds?: readonly string[];
  /** Runs at once (default 4); the results come in task and condition order whatever the concurrency. */
  concurrency?: number;
}

/** The model on the selected tasks × conditions, and the report of it. */
export async function runEval(
  dispatcher: Dispatcher,
  base: string,
  model: ModelOptions,
  options: SuiteOptions = {},
): Promise<{ report: Report; runs: EvalRun[] }> {
  const tasks = selectTasks(await listTasks(dispatcher, base), options.patterns ?? []);
  const kinds = options.kinds ?? [NONE, 'all'];
  const cells = tasks.flatMap((task) => evalConditions(task, kinds).map((condition) => ({ task, condition })));
  if (cells.length === 0) throw new Error(`no task and condition selected (tasks ${JSON.stringify(options.patterns ?? [])}, kinds ${kinds.join(',')})`);
  const detailsOf = taskDetails(dispatcher, base);
  const runs = await mapInOrder(cells, options.concurrency ?? 4, async ({ task, condition }) =>
    runModel(dispatcher, base, await detailsOf(task.id), condition, model, options),
  );
  return { report: evalReport(model, options.maxSteps ?? 30, tasks, runs), runs };
}

/** GET /tasks/{domain}/{number}, once per task: what a conversation needs of it. */
export function taskDetails(dispatcher: Dispatcher, base: string): (id: string) => Promise<EvalTask> {
  const details = new Map<string, Promise<EvalTask>>();
  return (id) => {
    let found = details.get(id);
    if (!found) {
      found = exchange(dispatcher, base, 'GET', `/tasks/${id}`).then((reply) => ok(reply, `GET /tasks/${id}`));
      details.set(id, found);
    }
    return found;
  };
}

/** The validity report's format with the model as the agent, its drop per kind, why runs failed and the pass counts. */
export function evalReport(model: ModelOptions, maxSteps: number, tasks: readonly MatrixTask[], runs: readonly EvalRun[]): Report {
  const count: Record<string, number> = {};
  for (const task of tasks) count[task.domain] = (count[task.domain] ?? 0) + 1;
  const byTask = new Map<string, { task: string; runs: number; passed: number }>();
  for (const run of runs) {
    const entry = byTask.get(run.task) ?? { task: run.task, runs: 0, passed: 0 };
    entry.runs += 1;
    entry.passed += run.success ? 1 : 0;
    byTask.set(run.task, entry);
  }
  return {
    title: `wildtools eval: ${model.model}`,
    tasks: count,
    model: { name: model.model, base_url: model.baseUrl, ...(model.temperature === undefined ? {} : { temperature: model.temperature }), max_steps: maxSteps },
    dropsOf: model.model,
    matrix: summarise(runs, model.model),
    passes: { runs: runs.length, passed: runs.filter((run) => run.success).length, tasks: [...byTask.values()] },
    runs: runs.map((run) => ({
      task: run.task,
      condition: run.condition,
      agent: run.agent,
      success: run.success,
      ...(run.success ? {} : { why: whyFailed(run) }),
      calls: run.score?.calls ?? 0,
      retries: run.score?.retries ?? 0,
      steps: run.steps.reduce((sum, n) => sum + n, 0),
      ...(run.error === undefined ? {} : { error: run.error }),
    })),
  };
}

/** A model name as a file name: `gpt-4o-mini`, `meta-llama-llama-3.1-8b`. */
export const modelSlug = (model: string) =>
  model
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '') || 'model';
