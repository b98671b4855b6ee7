import { z } from 'zod';
import type { ToolEntry } from './registry.js';

export const LISTING_FORMATS = ['native', 'openai', 'anthropic', 'mcp'] as const;
export type ListingFormat = (typeof LISTING_FORMATS)[number];

type JsonSchema = Record<string, unknown>;

/** JSON Schema (2020-12) of a zod schema, without the `$schema` marker listings do not use. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

interface Described {
  name: string;
  description: string;
  mutates: boolean;
  endpoint: string;
  input: JsonSchema;
  output: JsonSchema;
}

/** The listing of some tools in one format. `name` picks the domain name or the combined name. */
export function buildListing(entries: readonly ToolEntry[], format: ListingFormat, view: 'domain' | 'combined'): unknown {
  const described: Described[] = entries.map(({ domain, tool, combinedName }) => ({
    name: view === 'domain' ? tool.name : combinedName,
    description: tool.description,
    mutates: tool.mutates,
    endpoint: view === 'domain' ? `/${domain.name}/tools/${tool.name}` : `/tools/${combinedName}`,
    input: jsonSchemaOf(tool.input, 'input'),
    output: jsonSchemaOf(tool.output, 'output'),
  }));
  switch (format) {
    case 'openai':
      return described.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.input } }));
    case 'anthropic':
      return described.map((t) => ({ name: t.name, description: t.description, input_schema: t.input }));
    case 'mcp':
      return {
        tools: described.map((t) => ({
          name: t.name,
          description: t.description,
          inputSchema: t.input,
          ...(t.output['type'] === 'object' ? { outputSchema: t.output } : {}),
          annotations: { readOnlyHint: !t.mutates, destructiveHint: false, openWorldHint: false },
        })),
      };
    case 'native':
      return {
        tools: described.map((t) => ({
          name: t.name,
          description: t.description,
          mutates: t.mutates,
          endpoint: t.endpoint,
          input_schema: t.input,
          output_schema: t.output,
        })),
      };
  }
}
