import type { z } from 'zod';

/** What a tool may know of the call it serves, besides its arguments and database. */
export interface ToolContext {
  /** The session the call runs in. */
  readonly session: string;
  /** The time of this call on the session's clock: never the wall clock, so runs can be replayed. */
  now(): Date;
}

/**
 * One tool, declared once. The registry derives from this declaration the route, the
 * validation, the OpenAPI operation and the listings in every format.
 */
export interface Tool<
  Input extends z.ZodObject = z.ZodObject,
  Output extends z.ZodType = z.ZodType,
  Db = unknown,
> {
  /** snake_case, the name an agent calls. */
  readonly name: string;
  /** What an agent reads to decide when and how to call the tool. */
  readonly description: string;
  readonly input: Input;
  readonly output: Output;
  /** True when the tool writes to the session's database. */
  readonly mutates: boolean;
  /** Runs synchronously against the session's database; throws ToolError on a broken rule. */
  run(args: z.infer<Input>, db: Db, ctx: ToolContext): z.input<Output>;
}

/** Identity with types: lets a tool file declare `run` with its arguments inferred. */
export function defineTool<Input extends z.ZodObject, Output extends z.ZodType, Db>(
  tool: Tool<Input, Output, Db>,
): Tool<Input, Output, Db> {
  return tool;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = Tool<z.ZodObject, z.ZodType, any>;
