import type { Random } from '../lib/random.js';
import type { Table } from '../domains/table.js';
import type { HazardEvent } from '../server/sessions/journal.js';
import type { Family, KindName } from './catalog.js';
import type { CallContext } from './engine.js';

/** A tool as an agent reads it in a listing or an OpenAPI document. */
export interface ToolContract {
  name: string;
  description: string;
  input: Record<string, unknown>;
  output: Record<string, unknown>;
  mutates: boolean;
}

/** A concrete hazard of one tool, declared in a domain's hazards.ts. */
export interface ScenarioBase<K extends KindName = KindName> {
  kind: K;
  /** The tool it disturbs (its name within the domain). */
  tool: string;
  /** How the agent recovers, in this scenario's terms (recorded in the journal). */
  recovery?: string;
  /** For kinds that act on a whole session: the call of the tool from which it acts (default 1). */
  onset?: number;
}

/** What a kind's stage receives for one call it disturbs. */
export interface HazardCall<S extends ScenarioBase> {
  readonly scenario: S;
  readonly context: CallContext;
  /** Seeded for this call: the same seed, session, tool, kind and call number give the same draws. */
  readonly random: Random;
  /** True in hints mode: add `hint` to what the agent sees (the schedule is the same). */
  readonly hints: boolean;
  /** The hint text of this scenario. */
  readonly hint: string;
  /** The session's database of the tool's domain, to read. */
  readonly db: Record<string, Table<unknown>>;
  /** Engine settings a kind may use. */
  readonly settings: { latencyMs: number };
  /** Waits without blocking the event loop (tests pass their own clock). */
  readonly sleep: (ms: number) => Promise<void>;
  /** Records the injection on the call's journal entry; extra details describe what changed. */
  record(details?: Record<string, unknown>): HazardEvent;
}

/** The listing state of a session-wide kind for one tool. */
export interface ContractState<S extends ScenarioBase> {
  readonly scenario: S;
  /** The call of the tool from which the hazard acts. */
  readonly onset: number;
  /** Calls of the tool so far in the session. */
  readonly calls: number;
  readonly hints: boolean;
  readonly hint: string;
}

/**
 * One kind of hazard: its family, where it acts, what the agent sees, the recovery that always
 * remains, its hint, and the stages that inject it. The scenarios saying which tool it disturbs,
 * and how, come from the domains.
 */
export interface HazardKind<S extends ScenarioBase = ScenarioBase> {
  readonly kind: KindName;
  readonly family: Family;
  /**
   * `call`: each call is drawn on its own. `session`: drawn once per session; once active it
   * acts on every call of the tool from the scenario's onset on (drift, outage, rules).
   */
  readonly scope: 'call' | 'session';
  /** For session-wide kinds: the call of the tool from which it acts, unless the scenario says (default 1). */
  readonly onset?: number;
  /** A fault a plain retry gets past: never more than max_consecutive calls in a row. */
  readonly retryable: boolean;
  readonly sees: string;
  readonly recovery: string;
  hint(scenario: S): string;
  /**
   * For kinds any tool can suffer (failures of the transport or the server): the scenario used
   * for a tool that has none of its own. Other kinds need a declared scenario.
   */
  readonly generic?: Omit<S, 'tool'>;
  /** Before validation: may rewrite `call.context.args`, or throw a HazardFault. */
  before?(call: HazardCall<S>): void | Promise<void>;
  /** After a successful run: returns the result the agent receives. */
  after?(call: HazardCall<S>, result: unknown): unknown;
  /** The tool's contract as the session's listings and OpenAPI show it. */
  contract?(contract: ToolContract, state: ContractState<S>): ToolContract;
}

export const defineKind = <S extends ScenarioBase>(kind: HazardKind<S>): HazardKind<S> => kind;
