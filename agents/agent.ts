import { SKILL_NAMES, type Skill } from '../lib/skills.js';
import { type CarefulOptions, careful, literal } from './calls.js';
import type { Obj, ToolClient } from './tool-client.js';

/**
 * Who a scripted agent is: a name and the skills it has (lib/skills.ts). The oracle has them all and takes
 * every recovery; the naive agent has none and follows the plan literally; the skill spectrum lacks one
 * kind's skills each. All see only what any agent sees: answers, errors, the listing and the policy.
 */
export interface AgentProfile {
  readonly name: string;
  readonly skills: ReadonlySet<Skill>;
}

export const ORACLE: AgentProfile = { name: 'oracle', skills: new Set(SKILL_NAMES) };
export const NAIVE: AgentProfile = { name: 'naive', skills: new Set() };

/** The oracle without these skills: `without:<skill>+<skill>`. */
export const lacking = (skills: readonly Skill[]): AgentProfile => ({
  name: `without:${skills.join('+')}`,
  skills: new Set(SKILL_NAMES.filter((skill) => !skills.includes(skill))),
});

/** What a plan drives. */
export interface Agent {
  readonly name: string;
  /** Whether the agent has a skill: the plan takes the recovery it stands for only then. */
  has(skill: Skill): boolean;
  /** True when the agent has every skill (the oracle). */
  readonly recovers: boolean;
  readonly client: ToolClient;
  /** The task as any agent may see it (GET /tasks/{domain}/{number}?seed=N): request, follow-ups, the time, the policy, what the request states. */
  readonly task: TaskView;
  /** One call: careful with the skills the agent has (a literal call without any), Blocked when it gets no usable answer. */
  call<T = any>(tool: string, args?: Obj, options?: CarefulOptions): Promise<T>;
  /**
   * A write whose answer may be lost (a timeout, a dropped connection, a gateway error). With
   * `idempotency_key`, it carries a key of its own and a retry repeats it, so that a write that went through
   * is replayed, not repeated; with `read_before_retry`, `applied` (when the plan gives it) reads whether it
   * went through before any retry. Without either, a retry sends it again blindly.
   */
  write<T = any>(tool: string, args: Obj, options?: WriteOptions<T>): Promise<T>;
  /**
   * Independent calls issued as one parallel batch (as a model emits several tool calls in one turn).
   * They are sent in the order given, so that the journal is the same on every run.
   */
  parallel<T = any>(calls: readonly (readonly [tool: string, args?: Obj])[], options?: CarefulOptions): Promise<T[]>;
}

interface WriteOptions<T> extends CarefulOptions {
  /** Reads whether the write went through: its result when it did, undefined when it did not. */
  applied?: () => Promise<T | undefined>;
}

export interface TaskView {
  id: string;
  seed: number;
  request: string;
  follow_ups: string[];
  /** The session clock's time at the first call (ISO 8601). */
  now: string;
  policy: string;
  /** What the request states, as data. */
  given: any;
  /** Per turn: the answer's JSON Schema (null: answered in words). */
  answer_schemas: (Obj | null)[];
}

/** What an agent says at the end of a turn: a typed answer (a typed task), words for the user, or both. */
export interface Said {
  answer?: Obj;
  text?: string;
}

/** A task's plan: what the agents do, returning what they say at the end of each turn. */
export type Plan = (agent: Agent) => Promise<Said | string | readonly (Said | string)[]>;

/** A failure that leaves a write's outcome unknown: no answer, a broken one, or a server or gateway error. */
const outcomeUnknown = (error: unknown) => {
  const reply = (error as { reply?: { status: number } }).reply;
  return reply === undefined || reply.status >= 500 || reply.status === 0;
};

export function agentOf(profile: AgentProfile, client: ToolClient, task: TaskView): Agent {
  const has = (skill: Skill) => profile.skills.has(skill);
  const call = <T>(tool: string, args: Obj = {}, options?: CarefulOptions) =>
    (profile.skills.size === 0 ? literal<T>(client, tool, args) : careful<T>(client, tool, args, { ...options, skills: profile.skills })) as Promise<T>;
  const writes = new Map<string, number>();
  return {
    name: profile.name,
    has,
    recovers: SKILL_NAMES.every(has),
    client,
    task,
    call,
    async write<T>(tool: string, args: Obj, options: WriteOptions<T> = {}) {
      const { applied, ...rest } = options;
      if (has('idempotency_key')) {
        const n = (writes.get(tool) ?? 0) + 1;
        writes.set(tool, n);
        // Keyed by the task, not the session: two runs of one instance send the same calls.
        return call<T>(tool, { ...args, idempotency_key: `${task.id}.${tool}.${n}` }, rest);
      }
      if (!has('read_before_retry') || !applied) return call<T>(tool, args, rest);
      try {
        return await call<T>(tool, args, { ...rest, tries: 1 });
      } catch (error) {
        if (!outcomeUnknown(error)) throw error;
        return (await applied()) ?? call<T>(tool, args, rest);
      }
    },
    async parallel<T>(calls: readonly (readonly [string, Obj?])[], options?: CarefulOptions) {
      const results: T[] = [];
      for (const [tool, args] of calls) results.push(await call<T>(tool, args, options));
      return results;
    },
  };
}
