import type { FastifyInstance } from 'fastify';
import { hash32 } from '../../lib/random.js';
import type { TaskSpec } from '../../scoring/task.js';
import { callTool } from '../call.js';
import { unknownTool } from '../errors.js';
import { anthropicToolOf } from '../listings.js';
import { problemError } from '../problem.js';
import { openSession } from '../routes/sessions.js';
import type { Session } from '../sessions/session.js';
import { scoreSession, taskOf } from '../tasks/judge.js';
import { type CallView, callView, problemView } from './answer.js';
import { type Action, DEFAULT_MAX_STEPS, type EpisodeState, type Observation, type ResetData, type StepResult } from './protocol.js';

/** How far an episode has come; kept beside its session (and rebuilt from it for a task session started otherwise). */
interface Progress {
  steps: number;
  maxSteps: number;
  done: boolean;
}

const EMPTY: Omit<Observation, 'session_id' | 'step' | 'turn'> = {
  message: null,
  task: null,
  policy: null,
  tools: null,
  tool_name: null,
  response: null,
  result: null,
  error: null,
  score: null,
};

/**
 * OpenEnv episodes over wildtools sessions: reset starts a task's session, each step is a tool call, a
 * re-read of the listing or the final answer to the current request; the last answer (or the step limit)
 * ends the episode with the deterministic score as its reward. No transport here: HTTP, WebSocket and
 * JSON-RPC all drive these methods.
 */
export class Episodes {
  private readonly progress = new WeakMap<Session, Progress>();
  /** The sessions reset started: only these may be closed through the protocol (others need DELETE /sessions/{id}). */
  private readonly started = new WeakSet<Session>();

  constructor(private readonly app: FastifyInstance) {}

  /** Starts an episode in a new session: the task named, or the one the seed picks among those the filters leave. */
  async reset(data: ResetData): Promise<{ session: Session; result: StepResult }> {
    const { episode_id, domain, category, kind, max_steps, keep, ...options } = data;
    void keep; // the transport's business: whether the session outlives its WebSocket
    const task = options.task === undefined ? this.choose(data) : undefined;
    const body = { ...options, ...(task ? { task: task.id } : {}), ...(episode_id === undefined ? {} : { id: episode_id }) };
    const session = await openSession(this.app, body);
    this.progress.set(session, { steps: 0, maxSteps: max_steps ?? DEFAULT_MAX_STEPS, done: false });
    this.started.add(session);
    const spec = taskOf(session, this.app.tasks);
    const view = this.app.tasks.publicView(spec);
    const observation: Observation = {
      ...this.base(session, 0),
      message: spec.request,
      task: { id: spec.id, domain: view.domain, title: spec.title, now: view.now, turns: turnsOf(spec) },
      policy: view.policy,
      tools: this.tools(session, spec),
    };
    return { session, result: { observation, reward: null, done: false, metadata: { session_id: session.id } } };
  }

  async step(session: Session, action: Action): Promise<StepResult> {
    const task = taskOf(session, this.app.tasks);
    const progress = this.progressOf(session, task);
    if (progress.done) throw problemError(409, 'episode_done', `The episode in session ${session.id} is over; reset to start another.`);
    progress.steps++;
    let observation: Observation = this.base(session, progress.steps);
    let finished = false;
    switch (action.type) {
      case 'list_tools':
        observation.tools = this.tools(session, task);
        break;
      case 'call_tool':
        observation = { ...observation, tool_name: action.tool_name, ...(await this.call(session, task, action.tool_name, action.arguments)) };
        break;
      case 'answer': {
        this.app.sessions.recordAnswer(session, action.text);
        await this.app.sessions.durable();
        const answered = session.answers.length;
        finished = answered >= turnsOf(task);
        observation.turn = Math.min(answered + 1, turnsOf(task));
        if (!finished) observation.message = task.follow_ups![answered - 1]!;
        break;
      }
    }
    if (!finished && progress.steps < progress.maxSteps) return { observation, reward: null, done: false };
    progress.done = true;
    const score = scoreSession(session, this.app.tasks);
    return { observation: { ...observation, score: { ...score } }, reward: score.success ? 1 : 0, done: true, metadata: { session_id: session.id } };
  }

  /** True for a session an OpenEnv reset started. */
  isEpisode(session: Session): boolean {
    return this.started.has(session);
  }

  state(session: Session | undefined): EpisodeState {
    if (!session)
      return { episode_id: null, step_count: 0, session_id: null, task: null, turn: 1, turns: 1, max_steps: DEFAULT_MAX_STEPS, done: false, calls: 0 };
    const task = taskOf(session, this.app.tasks);
    const { steps, maxSteps, done } = this.progressOf(session, task);
    const turns = turnsOf(task);
    return {
      episode_id: session.id,
      step_count: steps,
      session_id: session.id,
      task: task.id,
      turn: Math.min(session.answers.length + 1, turns),
      turns,
      max_steps: maxSteps,
      done,
      calls: session.seq,
    };
  }

  /** The tools as the session lists them now (drift, rules and decoys included). */
  tools(session: Session, task: TaskSpec = taskOf(session, this.app.tasks)): NonNullable<Observation['tools']> {
    const view = this.viewOf(task);
    return (view.changed(session) ?? view.canonical).map(anthropicToolOf);
  }

  private async call(session: Session, task: TaskSpec, name: string, args: Record<string, unknown>): Promise<CallView> {
    const view = this.viewOf(task);
    const found = view.resolve(name, session);
    if (!found) return problemView(unknownTool(this.app, view.name, name));
    return callView(await callTool(this.app, session, found.domain, found.tool, args));
  }

  private viewOf(task: TaskSpec) {
    const domain = this.app.tasks.domain(task).name;
    return this.app.views.find((view) => view.name === domain)!;
  }

  private base(session: Session, step: number): Observation {
    return { ...EMPTY, session_id: session.id, step, turn: session.answers.length + 1 };
  }

  /** A session's progress; for one started without reset (POST /sessions, or before a restart), read off the session. */
  private progressOf(session: Session, task: TaskSpec): Progress {
    let progress = this.progress.get(session);
    if (!progress) {
      progress = { steps: session.seq + session.answers.length, maxSteps: DEFAULT_MAX_STEPS, done: session.answers.length >= turnsOf(task) };
      this.progress.set(session, progress);
    }
    return progress;
  }

  /** The task the seed picks among those the filters leave (the same seed, the same task). */
  private choose({ seed, domain, category, kind }: ResetData): TaskSpec {
    const candidates = this.app.tasks.select({ domain, category, kind }).sort((a, b) => (a.id < b.id ? -1 : 1));
    if (candidates.length === 0) {
      const field = kind !== undefined ? 'kind' : category !== undefined ? 'category' : domain !== undefined ? 'domain' : 'task';
      throw problemError(404, 'unknown_task', 'No task matches the filters; GET /tasks lists them.', { field });
    }
    const index = seed === undefined ? 0 : typeof seed === 'number' ? seed % candidates.length : hash32(seed) % candidates.length;
    return candidates[index]!;
  }
}

const turnsOf = (task: TaskSpec) => 1 + (task.follow_ups?.length ?? 0);
