import type { Skill } from '../lib/skills.js';
import type { z } from 'zod';
import type { Random } from '../lib/random.js';
import type { Table } from '../lib/table.js';
import type { CallContext } from './call-context.js';
import type { HazardEvent } from './event.js';
import type { HazardFault } from './fault.js';

/** The families kinds belong to (WildAgtEval's taxonomy, plus cross-source disagreement). */
export const FAMILY_NAMES = ['specification', 'invocation', 'execution', 'output', 'cross-source'] as const;
export type Family = (typeof FAMILY_NAMES)[number];

/**
 * Every kind's scenario type, by kind name. Each file in kinds/ adds its own member, so the kind
 * names and the scenario union derive from that folder:
 * `declare module '../kind.js' { interface ScenarioTypes<Db, Tool> { conflict: ConflictScenario<Db> } }`.
 * `Db` is the domain's typed database that hooks receive; `Tool` the domain's tool type (decoys).
 * @public (the kinds' files augment it: knip sees no import)
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the kinds' files (declaration merging)
// biome-ignore lint/correctness/noUnusedVariables: the type parameters are the kinds' files' to use
export interface ScenarioTypes<Db, Tool> {}

export type KindName = keyof ScenarioTypes<unknown, unknown> & string;

/** A scenario of any kind, with hooks typed for the domain's database and its tool names checked. */
export type Scenario<Db = unknown, ToolName extends string = string, Tool = HazardTool> = {
  [K in KindName]: Omit<ScenarioTypes<Db, Tool>[K], 'tool'> & { tool: ToolName };
}[KindName];

/** A scenario's literal client ends with no usable answer: `what` it got instead. */
export const blocked = (what: string) => ({ ends: 'blocked' as const, what });
/** A scenario's literal client ends with a wrong answer or end state: `what` it ends with. */
export const wrong = (what: string) => ({ ends: 'wrong' as const, what });

/** What the engine knows of a tool: its declaration (the domains' tools satisfy it). */
export interface HazardTool {
  readonly name: string;
  readonly description: string;
  readonly input: z.ZodObject;
  readonly output: z.ZodType;
  readonly mutates: boolean;
  /** What a writing tool does to what it touches (domains/tool.ts `Tool.effect`). */
  readonly effect?: ToolEffect;
  /** A short name for people; by default the tool's name in words. */
  readonly title?: string;
}

/** What a write does, for clients that ask a person before acting (MCP tool annotations). */
export interface ToolEffect {
  /** It deletes, overwrites, cancels or charges something (true), or only adds (false). */
  readonly destructive: boolean;
  /** The same call made twice has no further effect, without an idempotency key. */
  readonly idempotent: boolean;
}

/** A tool's behaviour as MCP annotations state it. */
export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  /** Every tool works on the session's own databases, never on the outside world. */
  openWorldHint: false;
}

/** What the engine knows of a domain: its name, tools and declared scenarios. */
export interface HazardDomain {
  readonly name: string;
  readonly tools: readonly HazardTool[];
  readonly hazards?: readonly ScenarioBase[];
}

/** What a scenario's hooks receive: one argument with the call, the domain's database and seeded draws. */
export interface Hook<Db = unknown> {
  /** The arguments of the call (as sent, for a stage before validation). */
  readonly args: Record<string, unknown>;
  readonly db: Db;
  /** Seeded for this call: the same seed, session, tool, kind and call number give the same draws. */
  readonly random: Random;
  /** Seeded for this session and scenario: the same draws on every call (a target chosen once). */
  readonly sessionRandom: Random;
  /** The session clock's time of the call. */
  readonly now: Date;
  /** The n-th call of the tool in the session. */
  readonly call: number;
}

/** An after-call hook also receives the result the tool gave. */
export interface ResultHook<Db = unknown> extends Hook<Db> {
  readonly result: unknown;
}

/** A tool as an agent reads it in a listing or an OpenAPI document. */
export interface ToolContract {
  name: string;
  description: string;
  input: Record<string, unknown>;
  output: Record<string, unknown>;
  mutates: boolean;
  annotations: ToolAnnotations;
  /** Documented as deprecated (a lookalike's decoy): OpenAPI marks the operation. */
  deprecated?: boolean;
}

/** A concrete hazard of one tool, declared in a domain's hazards.ts. */
export interface ScenarioBase<K extends string = KindName> {
  kind: K;
  /** The tool it disturbs (its name within the domain). */
  tool: string;
  /** How the agent recovers, in this scenario's terms (recorded in the journal). */
  recovery?: string;
  /** What a literal client ends with: a wrong answer or end state, or blocked with no usable answer. */
  naive?: { ends: 'wrong' | 'blocked'; what: string };
  /** When no recovery reaches the hazard-free answer: the honest partial answer that is the recovery. */
  partial?: string;
  /** For kinds that act on a whole session: the call of the tool from which it acts (default 1). */
  onset?: number;
  /** When it bites only some calls of its tool: which, in the agent's terms ("UPS orders only"). */
  condition?: string;
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
  /** The one argument of the scenario's hooks (with the tool's result, for after-call hooks). */
  hook(result?: unknown): ResultHook;
  /** Adds a header to the answer the agent receives. */
  header(name: string, value: string): void;
  /**
   * Leaves an effect on later calls of the session (a planted instruction, a lagging replica): each
   * later successful call it matches is reshaped by `apply` and journaled with this kind and `details`.
   */
  follow(effect: FollowUp): void;
  /** Engine settings a kind may use. */
  readonly settings: { latencyMs: number };
  /** Waits without blocking the event loop (tests pass their own clock). */
  readonly sleep: (ms: number) => Promise<void>;
  /** Records the injection on the call's journal entry; extra details describe what changed. */
  record(details?: Record<string, unknown>): HazardEvent;
  /** Whether another tool of the call's domain is out of reach for the session (a kind that takes tools down is on for it). */
  unavailable(tool: string): boolean;
}

/** An effect a hazard leaves on later calls of its session. */
export interface FollowUp {
  /** The tool of the hazard's domain whose later calls it concerns. */
  readonly tool: string;
  matches(args: Record<string, unknown>): boolean;
  /** How many matching calls it concerns (default: every one). */
  readonly calls?: number;
  /** The answer of a matching call (default: unchanged). */
  apply?(result: unknown): unknown;
  /** What the journal records on a matching call, besides the kind and the call. */
  readonly details: Record<string, unknown>;
}

/** The listing state of a session-wide kind for one tool. */
interface ContractState<S extends ScenarioBase> {
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
  readonly kind: S['kind'];
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
  /**
   * The skills that recover from it (lib/skills.ts): any one of them suffices, and an agent lacking them all
   * fails under the kind (the validity matrix's skill spectrum proves both).
   */
  readonly needs: readonly [Skill, ...Skill[]];
  hint(scenario: S): string;
  /**
   * For kinds any tool can suffer (failures of the transport or the server): the scenario used
   * for a tool that has none of its own. Other kinds need a declared scenario.
   */
  readonly generic?: Omit<S, 'tool'>;
  /** Only writing tools can suffer it (its generic scenario is not offered to reads). */
  readonly writesOnly?: boolean;
  /** While on, the tool answers nothing at all (an incident): kinds that send the agent to it stand down. */
  readonly takesDown?: boolean;
  /**
   * Its hit ends the call with a failure (no answer, or not the whole answer). When several such kinds hit
   * one call, a seeded draw weighted by their probabilities picks the one that strikes, so that each kind
   * of a profile gets its share of hits instead of the first in stage order taking them all.
   */
  readonly endsCall?: boolean;
  /**
   * Before validation: may rewrite `call.context.args`, or stop the call with a HazardFault. A stage that
   * answers at once returns its fault (an exception costs more than the rest of a refused call); a
   * waiting stage's promise rejects with it.
   */
  before?(call: HazardCall<S>): void | HazardFault | Promise<void>;
  /** After a successful run: returns the result the agent receives. */
  after?(call: HazardCall<S>, result: unknown): unknown;
  /** The tool's contract as the session's listings and OpenAPI show it. */
  contract?(contract: ToolContract, state: ContractState<S>): ToolContract;
}

export const defineKind = <S extends ScenarioBase>(kind: HazardKind<S>): HazardKind<S> => kind;
