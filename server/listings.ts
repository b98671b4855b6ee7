import type { ToolContract } from '../hazards/kind.js';
import { contractOf } from '../hazards/contract.js';
import type { ToolEntry } from './registry.js';

export const LISTING_FORMATS = ['native', 'openai', 'anthropic', 'mcp'] as const;
export type ListingFormat = (typeof LISTING_FORMATS)[number];

/** The contracts of some tools as declared, named as the view names them. */
export function contractsOf(entries: readonly ToolEntry[], view: 'domain' | 'combined'): ToolContract[] {
  return entries.map(({ tool, combinedName }) => contractOf(tool, view === 'domain' ? tool.name : combinedName));
}

/** The listing of tool contracts in one format; `prefix` is where their routes live. */
export function buildListing(contracts: readonly ToolContract[], format: ListingFormat, prefix: string): unknown {
  switch (format) {
    case 'openai':
      return contracts.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.input } }));
    case 'anthropic':
      return contracts.map((t) => ({ name: t.name, description: t.description, input_schema: t.input }));
    case 'mcp':
      return {
        tools: contracts.map((t) => ({
          name: t.name,
          description: t.description,
          inputSchema: t.input,
          ...(t.output['type'] === 'object' ? { outputSchema: t.output } : {}),
          annotations: { readOnlyHint: !t.mutates, destructiveHint: false, openWorldHint: false },
        })),
      };
    case 'native':
      return {
        tools: contracts.map((t) => ({
          name: t.name,
          description: t.description,
          mutates: t.mutates,
          endpoint: `${prefix}/tools/${t.name}`,
          input_schema: t.input,
          output_schema: t.output,
        })),
      };
  }
}
