import { STATUS_CODES } from 'node:http';
import { hash32 } from '../lib/random.js';
import type { Dispatcher } from 'undici';
import { type AssistantMessage, type ChatMessage, complete, type ModelOptions, type ToolCall } from './eval-chat.js';
import { exchange, type Reply } from './http.js';
import { mapInOrder } from './pool.js';
import { DEFAULT, type MatrixRun, type MatrixTask, NONE, summarise, whyFailed } from './matrix.js';
import type { Report } from './report.js';
import { listTasks, selectTasks } from './validity.js';
import { isObject } from '../lib/object.js';

// The eval: a model behind an OpenAI-compatible chat endpoint as the agent, on every selected task and
// condition. Each run is a conversation in its own session: the domain policy as system message, the
// request (then each follow-up) as user messages, the session's listing as the tools, re-read before
// every model request (it may drift), each tool call executed in order and answered with what any
// agent sees (status line and body). The score is the server's.

export type { ChatMessage, ModelOptions } from './eval-chat.js';

/** What the model is told besides the policy and the date. */
export const INSTRUCTION =
  'Use the tools to do what the user asks. When you are done with a request, call submit_answer with the answer its fields ask for ' +
  '(what you tell the user in your own words goes in its message), or, when no submit_answer tool is listed, answer the user in words; ' +
  'the next request, if any, follows.';

/** The date and time the conversation happens, as the system message tells it. */
export const nowLine = (now: string) => `Today is ${new Date(now).toUTCString().replace('GMT', 'UTC')} (${now} local time).`;

/** The longest answer the server records (longer ones are cut there). */
const MAX_ANSWER_CHARS = 65_536;

/** A task as the conversation needs it. */
export interface ConversationTask {
  policy: string;
  request: string;
  follow_ups: readonly string[];
  /** The session clock's time at the first call: the date the user speaks. */
  now: string;
  /** Per turn, the answer's schema: a turn with one is answered by submit_answer, one without (tau2-bench's) in words. */
  answer_schemas: readonly (Record<string, unknown> | null)[];
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
  /** The final words of each turn answered (a typed turn's answer is the submit_answer call in the journal). */
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
  if (!isObject(value)) return { error: 'Invalid arguments: not a JSON object. No call was made; send the arguments as one JSON object.' };
  return { args: value as Record<string, unknown> };
}

/**
 * The turn loop: the request, then each follow-up, as user messages of one conversation. In a turn, each
 * model request gets the listing re-read; its tool calls run in order, each answered by a tool message; a
 * message without tool calls is the turn's final answer. After `maxSteps` requests the turn ends with what
 * the model last said (or nothing). An error (the model endpoint, the server) ends the conversation.
 */
export async function converse(task: ConversationTask, io: ConversationIo, maxSteps: number): Promise<Conversation> {
  const messages: ChatMessage[] = [{ role: 'system', content: `${task.policy.trimEnd()}\n\n${nowLine(task.now)}\n\n${INSTRUCTION}` }];
  const conversation: Conversation = { messages, answers: [], steps: [], cut: [] };
  try {
    for (const [turn, request] of [task.request, ...task.follow_ups].entries()) {
      const typed = Boolean(task.answer_schemas[turn]);
      messages.push({ role: 'user', content: request });
      let said = '';
      let final: string | undefined;
      let submitted = false;
      let steps = 0;
      while (final === undefined && !submitted && steps < maxSteps) {
        steps += 1;
        conversation.steps[turn] = steps;
        const message = await io.complete(messages, await io.listing());
        messages.push(message);
        if (message.content?.trim()) said = message.content;
        if (!message.tool_calls) final = message.content ?? '';
        for (const call of message.tool_calls ?? []) {
          const { content, reply } = await execute(io, call);
          messages.push({ role: 'tool', tool_call_id: call.id, content });
          if (call.function.name === SUBMIT_ANSWER && reply?.status === 200) submitted = true;
        }
      }
      if (final === undefined && !submitted) conversation.cut.push(turn + 1);
      const text = (final ?? said).slice(0, MAX_ANSWER_CHARS);
      conversation.answers.push(text);
      // A typed turn is answered by submit_answer: one that ended without it leaves the task unanswered.
      if (typed && !submitted) break;
      if (!typed) await io.answer(text);
    }
  } catch (error) {
    conversation.error = (error as Error).message;
  }
  return conversation;
}

/** The answer to the submit_answer tool a task session lists. */
const SUBMIT_ANSWER = 'submit_answer';

async function execute(io: ConversationIo, call: ToolCall): Promise<{ content: string; reply?: Reply }> {
  const { name } = call.function;
  if (!TOOL_NAME.test(name)) return { content: `Unknown tool ${JSON.stringify(name)}: no call was made; call a tool of the listing.` };
  const parsed = parseArguments(call.function.arguments);
  if ('error' in parsed) return { content: parsed.error };
  const reply = await io.call(name, parsed.args);
  return { content: toolResult(reply), reply };
}

/** A task's instance as GET /tasks/{domain}/{number}?seed=N answers it. */
export interface EvalTask extends MatrixTask, ConversationTask {
  seed: number;
}

/** One model run: a matrix cell (the model as the agent) with its conversation's outcome. */
export interface EvalRun extends MatrixRun {
  session: string;
  answers: string[];
  steps: number[];
  cut: number[];
  messages: ChatMessage[];
}

/**
 * The session id of an eval run: readable, with the model's name in it, so that evals of two models against
 * one server keep to their own sessions. The hazards they meet depend on the seed, never on the id: every
 * model meets the same faults at the same calls.
 */
export const evalSession = (task: string, seed: number, condition: string, model = '') =>
  `e.${model ? `${modelTag(model)}.` : ''}${task.replace('/', '.')}.${seed}.${condition}`.slice(0, 64);

/** A model's name in a session id: the start of its slug and a hash of the whole name, so that two names never share one. */
const modelTag = (model: string) =>
  `${modelSlug(model).replaceAll('.', '-').slice(0, 11).replace(/-+$/, '')}-${hash32(model).toString(36).padStart(7, '0').slice(0, 5)}`;

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
  const { seed } = task;
  const session = setup?.session ?? evalSession(task.id, seed, condition, model.model);
  const hazards = setup
    ? { kinds: setup.kinds, ...(setup.hazard_rate === undefined ? {} : { hazard_rate: setup.hazard_rate }) }
    : condition === DEFAULT
      ? {}
      : { kinds: condition === NONE ? [] : [condition] };
  const send = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) => exchange(dispatcher, base, method, path, body);
  const run = unrun(task, seed, condition, model.model, session);
  try {
    // A session left over by an interrupted run of the same cell would refuse the id.
    await send('DELETE', `/sessions/${session}`);
    await ok(await send('POST', '/sessions', { id: session, task: task.id, seed, ...hazards }), 'POST /sessions');
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

/** A run before (or instead of) its conversation: failed, with `error` when it could not be run at all. */
function unrun(task: MatrixTask, seed: number, condition: string, agent: string, session: string, error?: string): EvalRun {
  return {
    task: task.id,
    domain: task.domain,
    seed,
    condition,
    agent,
    success: false,
    score: null,
    journal: [],
    session,
    answers: [],
    steps: [],
    cut: [],
    messages: [],
    ...(error === undefined ? {} : { error }),
  };
}

/**
 * The conditions a task runs under for the chosen kinds: `none` for the hazard-free run, `all` for each
 * kind the task targets, `default` for all its targets together, or kinds by name (those the task does not
 * target are left out).
 */
export function evalConditions(task: MatrixTask, kinds: readonly string[]): string[] {
  const targeted = [...new Set(task.targets.map((target) => target.kind))];
  const wanted = new Set(kinds);
  return [
    ...(wanted.has(NONE) ? [NONE] : []),
    ...targeted.filter((kind) => wanted.has('all') || wanted.has(kind)),
    ...(wanted.has(DEFAULT) && task.targets.length > 1 ? [DEFAULT] : []),
  ];
}

export interface SuiteOptions extends EvalOptions {
  /** Task patterns (`retail/*`, an exact id); every task without one. */
  patterns?: readonly string[];
  /** `none`, `all` and kind names (default none and all). */
  kinds?: readonly string[];
  /** Runs at once (default 4); the results come in task and condition order whatever the concurrency. */
  concurrency?: number;
  /** The instances every task runs on: the same for every model (default: test seed 1). */
  seeds?: readonly number[];
}

/** No task and condition to run: a mistake in the options, which the command reports without a stack trace. */
export class NothingSelected extends Error {
  constructor(patterns: readonly string[], kinds: readonly string[], seeds: readonly number[], tasks: number) {
    const why =
      tasks === 0
        ? `no task matches ${patterns.map((pattern) => JSON.stringify(pattern)).join(', ')} (GET /tasks lists the ids; a pattern takes *, ? and [set])`
        : seeds.length === 0
          ? 'no seed given'
          : `none of the ${tasks} tasks matched is played under kinds ${kinds.join(',')} (none, all, default, or a kind one of them targets)`;
    super(`no task and condition selected: ${why}`);
  }
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
  const seeds = options.seeds ?? [1];
  const cells = tasks.flatMap((task) => seeds.flatMap((seed) => evalConditions(task, kinds).map((condition) => ({ task, seed, condition }))));
  if (cells.length === 0) throw new NothingSelected(options.patterns ?? [], kinds, seeds, tasks.length);
  const detailsOf = taskDetails(dispatcher, base);
  const runs = await mapInOrder(cells, options.concurrency ?? 4, async ({ task, seed, condition }) => {
    const details = await detailsOf(task.id, seed).catch((error: Error) => error);
    // An instance the server would not show is a run that could not be completed, not the end of the eval.
    if (details instanceof Error) return unrun(task, seed, condition, model.model, evalSession(task.id, seed, condition, model.model), details.message);
    return runModel(dispatcher, base, details, condition, model, options);
  });
  return { report: evalReport(model, options.maxSteps ?? 30, tasks, runs), runs };
}

/** GET /tasks/{domain}/{number}?seed=N, once per instance: what a conversation needs of it. */
export function taskDetails(dispatcher: Dispatcher, base: string): (id: string, seed: number) => Promise<EvalTask> {
  const details = new Map<string, Promise<EvalTask>>();
  return (id, seed) => {
    const key = `${id}#${seed}`;
    let found = details.get(key);
    if (!found) {
      found = exchange(dispatcher, base, 'GET', `/tasks/${id}?seed=${seed}`).then((reply) => ok(reply, `GET /tasks/${id}?seed=${seed}`));
      details.set(key, found);
    }
    return found;
  };
}

/** The validity report's format with the model as the agent, its drop per kind, why runs failed and the pass counts. */
export function evalReport(model: ModelOptions, maxSteps: number, tasks: readonly MatrixTask[], runs: readonly EvalRun[]): Report {
  const count: Record<string, number> = {};
  for (const task of tasks) count[task.domain] = (count[task.domain] ?? 0) + 1;
  const byTask = new Map<string, { task: string; runs: number; passed: number }>();
  // A run that could not be completed (the model endpoint failed) is not the model's failure: left out of the counts.
  const completed = runs.filter((run) => run.error === undefined);
  for (const run of completed) {
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
    passes: { runs: completed.length, passed: completed.filter((run) => run.success).length, tasks: [...byTask.values()] },
    runs: runs.map((run) => ({
      task: run.task,
      seed: run.seed,
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
