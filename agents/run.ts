import type { Dispatcher } from 'undici';
import { type AgentProfile, agentOf, type Plan, type Said, type TaskView } from './agent.js';
import { Blocked } from './calls.js';
import { exchange, type Reply } from './http.js';
import { openEpisode, openenvToolClient } from './openenv.js';
import { type ToolClient, toolClient } from './tool-client.js';

export interface RunOptions {
  /** The session id (journals do not depend on it: draws depend on the seed, the task and the calls). */
  session: string;
  /** The task's instance (0: the embedded data). */
  seed?: number;
  /** The targeted kinds to switch on (default: all the task targets; [] for none). */
  kinds?: readonly string[];
  hazard_rate?: number;
  hints?: boolean;
  /** The session's own hazard settings besides the task's (e.g. `{enable: ['all'], rate: 0.5}`). */
  hazards?: Record<string, unknown>;
  /** Keep the session afterwards (default: deleted once scored). */
  keep?: boolean;
  /** How the agent reaches the tools: plain HTTP (default), or as the steps of an OpenEnv episode over WebSocket. */
  via?: 'http' | 'openenv';
}

export interface RunResult {
  task: string;
  agent: string;
  session: string;
  answers: Said[];
  /** Why the agent gave up, when it did. */
  blocked?: string;
  score: any;
  journal: any[];
  /** Over OpenEnv: the reward of the episode's last step (null when the plan left turns unanswered). */
  reward?: number | null;
}

/** The most steps an OpenEnv episode may take: plans are never cut short by the step limit. */
const EPISODE_STEPS = 1000;

/** What an agent says when it could not finish: an honest failure, which fails the task. */
const giveUp = (why: string) => `I could not complete the request: ${why}.`;

async function ok(reply: Reply, what: string): Promise<any> {
  if (reply.status < 200 || reply.status >= 300) throw new Error(`${what} answered ${reply.status}: ${reply.text.slice(0, 300)}`);
  return reply.body;
}

const saidOf = (said: Said | string): Said => (typeof said === 'string' ? { text: said } : said);

/** Runs one scripted agent on one task in a new session, records its answers and returns the score and journal. */
export async function runTask(dispatcher: Dispatcher, base: string, task: string, profile: AgentProfile, plan: Plan, options: RunOptions): Promise<RunResult> {
  const post = (path: string, body: unknown) => exchange(dispatcher, base, 'POST', path, body);
  const get = (path: string) => exchange(dispatcher, base, 'GET', path);
  const { session } = options;
  const domain = task.slice(0, task.indexOf('/'));
  const seed = options.seed ?? 0;
  const setup = {
    task,
    seed,
    ...(options.kinds === undefined ? {} : { kinds: [...options.kinds] }),
    ...(options.hazard_rate === undefined ? {} : { hazard_rate: options.hazard_rate }),
    ...(options.hints || options.hazards ? { hazards: { ...options.hazards, ...(options.hints ? { hints: true } : {}) } } : {}),
  };
  const episode = options.via === 'openenv' ? (await openEpisode(base, { ...setup, episode_id: session, max_steps: EPISODE_STEPS })).episode : undefined;
  try {
    if (!episode) await ok(await post('/sessions', { id: session, ...setup }), 'POST /sessions');
    const view: TaskView = await ok(await get(`/tasks/${task}?seed=${seed}`), 'GET /tasks/{domain}/{number}');
    const client = episode ? openenvToolClient(episode, dispatcher, base, domain, session) : toolClient(dispatcher, base, domain, session);
    let answers: Said[];
    let blocked: string | undefined;
    try {
      const said = await plan(agentOf(profile, client, view));
      answers = (Array.isArray(said) ? said : [said]).map(saidOf);
    } catch (error) {
      if (!(error instanceof Blocked)) throw error;
      blocked = error.message;
      answers = [{ text: giveUp(error.message) }];
    }
    let reward: number | null = null;
    for (const [turn, said] of answers.entries()) {
      const typed = view.answer_schemas[turn] !== null && view.answer_schemas[turn] !== undefined;
      // A typed task is answered with its fields: an agent that gave up (words alone) submits nothing.
      if (typed && said.answer === undefined) break;
      if (episode) {
        const step = await episode.step({ type: 'answer', ...said }).catch((error: Error) => error);
        if (step instanceof Error) break;
        reward = step.reward;
      } else if (typed) {
        // An answer the schema refuses leaves the turn unanswered (the score says so); the agent does not try again.
        if ((await submit(client, said)) !== 200) break;
      } else await ok(await post(`/sessions/${session}/answer`, said), 'POST /sessions/{id}/answer');
    }
    const score = await ok(await get(`/sessions/${session}/score`), 'GET /sessions/{id}/score');
    const journal = await ok(await get(`/sessions/${session}/journal`), 'GET /sessions/{id}/journal');
    if (!options.keep) await exchange(dispatcher, base, 'DELETE', `/sessions/${session}`);
    return { task, agent: profile.name, session, answers, ...(blocked === undefined ? {} : { blocked }), score, journal, ...(episode ? { reward } : {}) };
  } finally {
    await episode?.close();
  }
}

/** A typed answer, as a model submits it: the submit_answer tool its session lists. Returns the status. */
async function submit(client: ToolClient, { answer, text }: Said): Promise<number> {
  return (await client.call('submit_answer', { ...answer, ...(text === undefined ? {} : { message: text }) })).status;
}
