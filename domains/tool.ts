import { z } from 'zod';
import type { ToolEffect } from '../hazards/kind.js';
import type { ToolErrorEntry } from './errors.js';

/**
 * How closely tools reproduce the reference benchmark their domain follows (e.g. tau2-bench):
 * `off` fixes its known bugs; `strict` reproduces them too, where a domain documents one.
 */
export const COMPAT_MODES = ['off', 'strict'] as const;
export type CompatMode = (typeof COMPAT_MODES)[number];

/** What a tool may know of the call it serves, besides its arguments and database. */
export interface ToolContext {
  /** The session the call runs in. */
  readonly session: string;
  /** The time of this call on the session's clock: never the wall clock, so runs can be replayed. */
  now(): Date;
  /** The server's compatibility mode (TAU2_COMPAT). */
  readonly compat: CompatMode;
}

/**
 * One tool, declared once. The registry derives from this declaration the route, the
 * validation, the OpenAPI operation and the listings in every format.
 */
export interface Tool<Input extends z.ZodObject = z.ZodObject, Output extends z.ZodType = z.ZodType, Db = unknown, Name extends string = string> {
  /** snake_case, the name an agent calls. */
  readonly name: Name;
  /** What an agent reads to decide when and how to call the tool. */
  readonly description: string;
  readonly input: Input;
  readonly output: Output;
  /**
   * The codes of its domain's catalog the tool may refuse with (`codesOf(<DOMAIN>_ERRORS, …)`), besides the ones
   * every call may meet (domains/shared-errors.ts) and the hazards' (hazards/errors.ts). Tests hold it true.
   */
  readonly errors: readonly ToolErrorEntry[];
  /** True when the tool writes to the session's database. */
  readonly mutates: boolean;
  /**
   * A writing tool's effect, read from its run(): destructive when it deletes, overwrites, cancels or
   * charges; idempotent when the same call twice has no further effect. Every writing tool declares it.
   */
  readonly effect?: ToolEffect;
  /** A short name for people (MCP's title); by default the name in words. */
  readonly title?: string;
  /**
   * Arguments that succeed in a new session over the embedded data (the default clock): the OpenAPI documents show
   * them as the request body's example, so that Swagger UI's "Try it out" works on the first Execute.
   */
  readonly example?: z.input<Input>;
  /** Runs synchronously against the session's database; throws ToolError on a broken rule. */
  run(args: z.infer<Input>, db: Db, ctx: ToolContext): z.input<Output>;
}

/**
 * Every write accepts an idempotency key, as payment and booking APIs do: the same key with the same
 * arguments in a session answers the first call's result without writing again (server/idempotency.ts).
 */
export const IDEMPOTENCY_KEY = 'idempotency_key';
export const IdempotencyKey = z
  .string()
  .min(1)
  .max(255)
  .describe('Any unique string (e.g. a UUID) identifying this operation: a retry with the same key and arguments is answered without writing twice.');

/** Declares a tool, with its arguments inferred for `run`; a writing tool's input gains `idempotency_key`. */
export function defineTool<Input extends z.ZodObject, Output extends z.ZodType, Db, const Name extends string>(
  tool: Tool<Input, Output, Db, Name>,
): Tool<Input, Output, Db, Name> {
  if (!tool.mutates) return tool;
  return { ...tool, input: tool.input.extend({ [IDEMPOTENCY_KEY]: IdempotencyKey.optional() }) as unknown as Input };
}

// biome-ignore lint/suspicious/noExplicitAny: a tool of any domain: its database type is the domain's own
export type AnyTool = Tool<z.ZodObject, z.ZodType, any>;
