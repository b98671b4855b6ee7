import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/** JSON Schema (2020-12) of a zod schema, without the `$schema` marker listings do not use. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}
