import type { Dispatcher } from 'undici';
import { type AgentName, agentOf, type Plan } from './agent.js';
import { Blocked } from './calls.js';
import { exchange, type Reply } from './http.js';
import { openEpisode, openenvToolClient } from './openenv.js';
import { toolClient } from './tool-client.js';

export interface RunOptions {
  /** The session id (fixed ids make runs reproducible: draws depend on the seed, the calls and nothing else). */
  session: string;
  seed?: string;
  /** The targeted kinds to switch on (default: all the task targets; [] for none). */
  kinds?: readonly string[];
  hazard_rate?: number;
  hints?: boolean;
  /** Keep the session afterwards (default: deleted once scored). */
  keep?: boolean;
  /** How the agent reaches the tools: plain HTTP (default), or as the steps of an OpenEnv episode over WebSocket. */
  via?: 'http' | 'openenv';
}

export interface RunResult {
  task: string;
  agent: AgentName;
  session: string;
  answers: string[];
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
export const giveUp = (why: string) => `I could not complete the request: ${why}.`;

async function ok(reply: Reply, what: string): Promise<any> {
  if (reply.status < 200 || reply.status >= 300) throw new Error(`${what} answered ${reply.status}: ${reply.text.slice(0, 300)}`);
  return reply.body;
}

/** Runs one scripted agent on one task in a new session, records its answers and returns the score and journal. */
export async function runTask(dispatcher: Dispatcher, base: string, task: string, agent: AgentName, plan: Plan, options: RunOptions): Promise<RunResult> {
  const post = (path: string, body: unknown) => exchange(dispatcher, base, 'POST', path, body);
  const get = (path: string) => exchange(dispatcher, base, 'GET', path);
  const { session } = options;
  const domain = task.slice(0, task.indexOf('/'));
  const setup = {
    task,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.kinds === undefined ? {} : { kinds: [...options.kinds] }),
    ...(options.hazard_rate === undefined ? {} : { hazard_rate: options.hazard_rate }),
    ...(options.hints ? { hazards: { hints: true } } : {}),
  };
  const episode = options.via === 'openenv' ? (await openEpisode(base, { ...setup, episode_id: session, max_steps: EPISODE_STEPS })).episode : undefined;
  try {
    if (!episode) await ok(await post('/sessions', { id: session, ...setup }), 'POST /sessions');
    const view = await ok(await get(`/tasks/${task}`), 'GET /tasks/{domain}/{number}');
    const client = episode ? openenvToolClient(episode, dispatcher, base, domain, session) : toolClient(dispatcher, base, domain, session);
    let answers: string[];
    let blocked: string | undefined;
    try {
      const said = await plan(agentOf(agent, client, view));
      answers = typeof said === 'string' ? [said] : said;
    } catch (error) {
      if (!(error instanceof Blocked)) throw error;
      blocked = error.message;
      answers = [giveUp(error.message)];
    }
    let reward: number | null = null;
    for (const text of answers) {
      if (episode) reward = (await episode.step({ type: 'answer', text })).reward;
      else await ok(await post(`/sessions/${session}/answer`, { text }), 'POST /sessions/{id}/answer');
    }
    const score = await ok(await get(`/sessions/${session}/score`), 'GET /sessions/{id}/score');
    const journal = await ok(await get(`/sessions/${session}/journal`), 'GET /sessions/{id}/journal');
    if (!options.keep) await exchange(dispatcher, base, 'DELETE', `/sessions/${session}`);
    return { task, agent, session, answers, ...(blocked === undefined ? {} : { blocked }), score, journal, ...(episode ? { reward } : {}) };
  } finally {
    await episode?.close();
  }
}
