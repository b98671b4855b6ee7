import { z } from 'zod';
import { deepFreeze } from './freeze.js';

export type JsonSchema = Record<string, unknown>;

const made = { input: new WeakMap<z.ZodType, JsonSchema>(), output: new WeakMap<z.ZodType, JsonSchema>() };

/**
 * JSON Schema (2020-12) of a zod schema, without the `$schema` marker listings do not use. Made once per
 * schema and frozen (every view, listing and document of a tool shares it): the conversion was a tenth of
 * the server's start.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  let json = made[io].get(schema);
  if (!json) {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
    json = deepFreeze(portableTuples(rest) as JsonSchema);
    made[io].set(schema, json);
  }
  return json;
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
