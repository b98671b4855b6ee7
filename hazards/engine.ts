import type { AnyTool } from '../domains/tool.js';
import type { HazardEvent } from '../server/sessions/journal.js';
import type { Session } from '../server/sessions/session.js';

/** What a hazard stage knows of the call it may disturb. */
export interface CallContext {
  readonly session: Session;
  readonly domain: string;
  readonly tool: AnyTool;
  /** The n-th call of this tool in the session, counting from 1. */
  readonly call: number;
  /** The session clock's time of this call, epoch milliseconds. */
  readonly at: number;
  /** The arguments as the agent sent them (before validation). */
  args: unknown;
  /** Hazards injected into this call; the journal records them. */
  readonly events: HazardEvent[];
}

/**
 * The seam every call passes through. `before` runs ahead of validation and may rewrite the
 * arguments or throw a ProblemError (a failure the agent sees); `after` may reshape a
 * successful result. The engine that fills these stages lives in this folder.
 */
export interface HazardEngine {
  before(context: CallContext): void | Promise<void>;
  // Both stages may answer synchronously: a call no hazard touches then costs no extra tick.
  after(context: CallContext, result: unknown): unknown | Promise<unknown>;
}

/** No hazards: every call passes through untouched. */
export const noHazards: HazardEngine = {
  before() {},
  after(_context, result) {
    return result;
  },
};
