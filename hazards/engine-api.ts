import type { Assignment } from './assignment.js';
import type { CallContext, HazardSession } from './call-context.js';
import type { KindName } from './catalog.js';
import type { HazardFault } from './fault.js';
import type { HazardDomain, HazardKind, ToolContract } from './kind.js';

/** A session's hazard settings once every layer is applied. */
export interface Settings {
  hints: boolean;
  maxConsecutive: number;
  latencyMs: number;
}

/** One cell of the effective matrix: a tool, a kind, its probability and where it was set. */
export interface MatrixCell {
  domain: string;
  tool: string;
  kind: KindName;
  family: string;
  probability: number;
  source: string;
  /** Declared by the domain (true), or a generic scenario switched on by name (false). */
  assigned: boolean;
}

/**
 * What the server, the CLI and the tests use of the hazard engine (`engine.ts`). Every call passes through
 * `before`, which runs ahead of validation and may rewrite the arguments or stop the call with the fault the
 * agent receives (returned, or the rejection of its promise), and `after`, which may reshape a successful
 * result; listings pass through `contracts`.
 */
export interface HazardEngineApi {
  /** Which scenario each tool of every domain (built-in and attached) has. */
  readonly assignment: Assignment;
  readonly kinds: ReadonlyMap<KindName, HazardKind>;

  // Both stages may answer synchronously: a call no hazard touches then costs no extra tick.
  before(context: CallContext): void | HazardFault | Promise<void>;
  after(context: CallContext, result: unknown): unknown;

  /** The tools of a domain as this session's listings show them, or null when unchanged. */
  contracts(session: HazardSession, domain: string, canonical: readonly ToolContract[]): ToolContract[] | null;
  /** Whether a decoy tool of this name is listed (and served) in the session. */
  decoyActive(session: HazardSession, domain: string, name: string): boolean;
  /** Whether a hazard with an after-call stage is on for this tool in the session: its answers may then differ from the declared output. */
  reshapes(session: HazardSession, domain: string, tool: string): boolean;
  /** A token that stays the same object while the session's hazard plan is unchanged (its settings, every layer's). */
  revision(session: HazardSession): object;

  /** Replaces the domains served besides the built-in ones (proxied upstreams); a name clash with a built-in one is an error. */
  attach(domains: readonly HazardDomain[]): void;
  /** Replaces the runtime settings (PUT /admin/hazards); undefined clears them. */
  setRuntime(spec: unknown): void;
  /** Checks a session's hazard settings; throws HazardConfigError naming the bad word. */
  check(spec: unknown): void;
  settings(session: HazardSession): Settings;
  /** The effective matrix for a session: every assigned cell, and any other cell switched on. */
  matrix(session: HazardSession): MatrixCell[];
}
