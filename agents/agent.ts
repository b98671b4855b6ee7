import { type CarefulOptions, careful, literal } from './calls.js';
import type { Obj, ToolClient } from './tool-client.js';

/**
 * What a plan drives: the oracle recovers (it calls carefully and takes the documented recovery branches),
 * the naive agent follows the same plan literally. Both see only what any agent sees: answers, errors,
 * the listing and the policy.
 */
export interface Agent {
  readonly name: 'oracle' | 'naive';
  /** True for the oracle: take the plan's recovery branches. */
  readonly recovers: boolean;
  readonly client: ToolClient;
  /** The task as any agent may see it (GET /tasks/{domain}/{number}): request, follow-ups, the time, the policy. */
  readonly task: TaskView;
  /** One call: careful for the oracle, literal for the naive agent (Blocked when it gets no usable answer). */
  call<T = any>(tool: string, args?: Obj, options?: CarefulOptions): Promise<T>;
  /**
   * A write whose answer may be lost (a timeout, a dropped connection, a gateway error). The oracle sends
   * it with an idempotency key of its own and retries with the same key, so that a write that went
   * through is replayed, not repeated; the naive agent sends it once, without a key.
   */
  write<T = any>(tool: string, args: Obj, options?: CarefulOptions): Promise<T>;
  /**
   * Independent calls issued as one parallel batch (as a model emits several tool calls in one turn).
   * They are sent in the order given, so that the journal is the same on every run.
   */
  parallel<T = any>(calls: readonly (readonly [tool: string, args?: Obj])[], options?: CarefulOptions): Promise<T[]>;
}

export interface TaskView {
  id: string;
  request: string;
  follow_ups: string[];
  /** The session clock's time at the first call (ISO 8601). */
  now: string;
  policy: string;
}

/** A task's plan: what both agents do, returning the final answer of each turn. */
export type Plan = (agent: Agent) => Promise<string | string[]>;

export type AgentName = Agent['name'];

export function agentOf(name: AgentName, client: ToolClient, task: TaskView): Agent {
  const recovers = name === 'oracle';
  const call = <T>(tool: string, args: Obj = {}, options?: CarefulOptions) =>
    (recovers ? careful<T>(client, tool, args, options) : literal<T>(client, tool, args)) as Promise<T>;
  const writes = new Map<string, number>();
  return {
    name,
    recovers,
    client,
    task,
    call,
    write(tool, args, options) {
      if (!recovers) return literal(client, tool, args);
      const n = (writes.get(tool) ?? 0) + 1;
      writes.set(tool, n);
      return careful(client, tool, { ...args, idempotency_key: `${client.session}.${tool}.${n}` }, options);
    },
    async parallel<T>(calls: readonly (readonly [string, Obj?])[], options?: CarefulOptions) {
      const results: T[] = [];
      for (const [tool, args] of calls) results.push(await call<T>(tool, args, options));
      return results;
    },
  };
}
