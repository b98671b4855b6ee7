import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { callTool } from '../core/call.js';
import { unknownToolCall } from '../core/errors.js';
import { anthropicToolOf } from '../core/listings.js';
import { problemError } from '../core/problem.js';
import { openSession } from '../core/sessions/open.js';
import { SESSION_ID, type Session } from '../core/sessions/session.js';
import { MESSAGE, SUBMIT_ANSWER } from '../core/tasks/answer-tool.js';
import { submitAnswer } from '../core/tasks/answers.js';
import type { TaskEntry } from '../core/tasks/book.js';
import type { TaskInstance } from '../core/tasks/instance.js';
import { instanceOf, scoreSession } from '../core/tasks/judge.js';
import { drawnSeed } from '../core/tasks/seeds.js';
import { type CallView, callView, problemView } from './answer.js';
import { type Action, DEFAULT_MAX_STEPS, type EpisodeState, type Observation, type ResetData, type StepResult } from './protocol.js';

/** How far an episode has come; kept beside its session (and rebuilt from it for a task session started otherwise). */
interface Progress {
  /** The id reset was given (any string OpenEnv allows), else the session's. */
  episodeId: string;
  steps: number;
  maxSteps: number;
  done: boolean;
}

const EMPTY: Omit<Observation, 'session_id' | 'step' | 'turn'> = {
  message: null,
  task: null,
  policy: null,
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

  /**
   * Starts an episode in a new session: the task named, or the one the seed picks among those the filters leave
   * (with neither, the seed drawn for the session picks it). `ignored` names the arguments reset did not take.
   */
  async reset(data: ResetData, ignored: readonly string[] = []): Promise<{ session: Session; result: StepResult }> {
    const { episode_id, domain, category, kind, max_steps, keep, ...options } = data;
    void keep; // the transport's business: whether the session outlives its WebSocket
    const id = episode_id === undefined ? undefined : sessionIdOf(episode_id);
    let body: typeof options & { id?: string } = { ...options, ...(id === undefined ? {} : { id }) };
    if (options.task === undefined) {
      // The seed picks the task; without one, the seed the session would draw (its id chosen here to know it).
      if (options.seed === undefined) body.id ??= this.app.sessions.newId();
      const seed = options.seed ?? drawnSeed(body.id!);
      body = { ...body, seed, task: (await this.choose({ seed, domain, category, kind })).id };
    }
    const session = await openSession(this.app, body);
    this.progress.set(session, { episodeId: episode_id ?? session.id, steps: 0, maxSteps: max_steps ?? DEFAULT_MAX_STEPS, done: false });
    this.started.add(session);
    const instance = instanceOf(session);
    const observation: Observation = {
      ...this.base(session, 0),
      message: instance.turns[0]!.request,
      task: { id: instance.id, domain: instance.domain.name, title: instance.title, now: instance.clock.start, turns: turnsOf(instance), seed: instance.seed },
      policy: this.app.tasks.policy(instance.domain),
      tools: this.tools(session),
      ...(ignored.length > 0 ? { metadata: { ignored_kwargs: [...ignored] } } : {}),
    };
    return { session, result: { observation, reward: null, done: false, metadata: { session_id: session.id } } };
  }

  async step(session: Session, action: Action): Promise<StepResult> {
    const task = instanceOf(session);
    const progress = this.progressOf(session, task);
    if (progress.done) throw problemError(409, 'episode_done', `The episode in session ${session.id} is over; reset to start another.`);
    progress.steps++;
    const answeredBefore = session.answers.length;
    let observation: Observation = this.base(session, progress.steps);
    let finished = false;
    switch (action.type) {
      case 'list_tools':
        observation.tools = this.tools(session);
        break;
      case 'call_tool':
        observation = { ...observation, tool_name: action.tool_name, ...(await this.call(session, task, action.tool_name, action.arguments)) };
        break;
      case 'answer': {
        const { answer, text } = action;
        if (answer !== undefined && task.turns[session.answers.length]?.answer) {
          // A typed answer is the submit_answer call it stands for: journaled, validated and answered like one.
          const args = { ...answer, ...(text === undefined ? {} : { [MESSAGE]: text }) };
          observation = { ...observation, tool_name: SUBMIT_ANSWER, ...(await this.call(session, task, SUBMIT_ANSWER, args)) };
          break;
        }
        submitAnswer(this.app.sessions, session, { ...(answer === undefined ? {} : { answer }), ...(text === undefined ? {} : { text }) });
        await this.app.sessions.durable();
        break;
      }
    }
    if (session.answers.length > answeredBefore) {
      // An answer was recorded (the answer action, or submit_answer called as a tool): the next request, or the end.
      ({ finished, observation } = this.afterAnswer(observation, instanceOf(session).turns[session.answers.length]?.request ?? null));
    }
    if (!finished && progress.steps < progress.maxSteps) return { observation, reward: null, done: false };
    progress.done = true;
    const score = scoreSession(session);
    return { observation: { ...observation, score: { ...score } }, reward: score.success ? 1 : 0, done: true, metadata: { session_id: session.id } };
  }

  /** True for a session an OpenEnv reset started. */
  isEpisode(session: Session): boolean {
    return this.started.has(session);
  }

  state(session: Session | undefined): EpisodeState {
    if (!session)
      return {
        episode_id: null,
        step_count: 0,
        session_id: null,
        task: null,
        seed: null,
        turn: 1,
        turns: 1,
        max_steps: DEFAULT_MAX_STEPS,
        done: false,
        calls: 0,
      };
    const task = instanceOf(session);
    const { episodeId, steps, maxSteps, done } = this.progressOf(session, task);
    const turns = turnsOf(task);
    return {
      episode_id: episodeId,
      step_count: steps,
      session_id: session.id,
      task: task.id,
      seed: task.seed,
      turn: Math.min(session.answers.length + 1, turns),
      turns,
      max_steps: maxSteps,
      done,
      calls: session.seq,
    };
  }

  /** The tools as the session lists them now (drift, rules and decoys included, and submit_answer). */
  tools(session: Session): NonNullable<Observation['tools']> {
    const view = this.viewOf(instanceOf(session));
    return (view.changed(session) ?? view.canonical).map(anthropicToolOf);
  }

  /** After an answer: the next request, or the end of the episode. */
  private afterAnswer(observation: Observation, next: string | null): { finished: boolean; observation: Observation } {
    return { finished: next === null, observation: { ...observation, turn: observation.turn + (next === null ? 0 : 1), message: next } };
  }

  private async call(session: Session, task: TaskInstance, name: string, args: Record<string, unknown>): Promise<CallView> {
    const view = this.viewOf(task);
    const found = view.resolve(name, session);
    if (!found) return problemView(unknownToolCall(this.app, session, view.name, name, args));
    return callView(await callTool(this.app, session, found.domain, found.tool, args));
  }

  private viewOf(task: TaskInstance) {
    return this.app.views.find((view) => view.name === task.domain.name)!;
  }

  private base(session: Session, step: number): Observation {
    return { ...EMPTY, session_id: session.id, step, turn: session.answers.length + 1 };
  }

  /** A session's progress; for one started without reset (POST /sessions, or before a restart), read off the session. */
  private progressOf(session: Session, task: TaskInstance): Progress {
    let progress = this.progress.get(session);
    if (!progress) {
      progress = {
        episodeId: session.id,
        steps: session.seq + session.answers.length,
        maxSteps: DEFAULT_MAX_STEPS,
        done: session.answers.length >= turnsOf(task),
      };
      this.progress.set(session, progress);
    }
    return progress;
  }

  /** The task the seed picks among those the filters leave (the same seed, the same task). */
  private async choose({ seed, domain, category, kind }: ResetData): Promise<TaskEntry> {
    const candidates = (await this.app.tasks.ready()).select({ domain, category, kind }).sort((a, b) => (a.id < b.id ? -1 : 1));
    if (candidates.length === 0) {
      const field = kind !== undefined ? 'kind' : category !== undefined ? 'category' : domain !== undefined ? 'domain' : 'task';
      throw problemError(404, 'unknown_task', 'No task matches the filters; GET /tasks lists them.', { field });
    }
    const index = Number(seed) % candidates.length;
    return candidates[index]!;
  }
}

const turnsOf = (task: TaskInstance) => task.turns.length;

/**
 * The session an episode id names: itself when it is a session id, else one derived from it (OpenEnv allows any
 * string of up to 255 characters; a session id goes into URLs and file names).
 */
export function sessionIdOf(episodeId: string): string {
  return SESSION_ID.test(episodeId) ? episodeId : `episode-${createHash('sha256').update(episodeId).digest('hex').slice(0, 40)}`;
}
