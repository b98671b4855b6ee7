import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/** JSON Schema (2020-12) of a zod schema, without the `$schema` marker listings do not use. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return portableTuples(rest) as JsonSchema;
}

/**
 * Tuples (`prefixItems`, 2020-12) as every JSON Schema reader understands them: an array of exactly
 * that many items, each one of the positions' schemas. Draft-07 validators (the MCP SDK's ajv) read
 * `prefixItems` as unknown and `items: false` as "no items", refusing every tuple; OpenAI's strict
 * mode has no `prefixItems` either.
 */
function portableTuples(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(portableTuples);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) out[key] = portableTuples(child);
  const positions = out['prefixItems'];
  if (!Array.isArray(positions)) return out;
  delete out['prefixItems'];
  const distinct = [...new Map(positions.map((position) => [JSON.stringify(position), position])).values()];
  out['items'] = distinct.length === 1 ? distinct[0] : { anyOf: distinct };
  out['minItems'] = positions.length;
  out['maxItems'] = positions.length;
  return out;
}
