import type { ToolAnnotations, ToolContract } from '../../hazards/kind.js';
import { contractOf } from '../../hazards/contract.js';
import { strictSchemaOf } from '../../lib/strict-schema.js';
import type { ToolEntry } from './registry.js';

export const LISTING_FORMATS = ['native', 'openai', 'openai-responses', 'anthropic', 'mcp'] as const;
export type ListingFormat = (typeof LISTING_FORMATS)[number];
/** The formats that have a strict variant (OpenAI's Structured Outputs for tool arguments). */
export const STRICT_FORMATS: readonly ListingFormat[] = ['openai', 'openai-responses'];

type Schema = Record<string, unknown>;
/** A JSON Schema with an object at its root, as Anthropic and MCP require of a tool's input. */
export type ObjectSchema = Schema & { type: 'object' };

/** A Chat Completions tool. */
export interface ChatCompletionsTool {
  type: 'function';
  function: { name: string; description: string; parameters: Schema; strict?: true };
}

/** A Responses API function tool (flat). */
export interface ResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: Schema;
  strict: boolean;
}

/** A Messages API tool. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: ObjectSchema;
}

/** One tool of an MCP tools/list result. */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: ObjectSchema;
  outputSchema?: ObjectSchema;
  annotations: ToolAnnotations;
}

/** The contracts of some tools as declared, named as the view names them. */
export function contractsOf(entries: readonly ToolEntry[], view: 'domain' | 'combined'): ToolContract[] {
  return entries.map(({ tool, combinedName }) => contractOf(tool, view === 'domain' ? tool.name : combinedName));
}

/** A tool input in strict mode's terms, or as declared. */
const parametersOf = (contract: ToolContract, strict: boolean): Schema => (strict ? strictSchemaOf(contract.input) : contract.input);

export function chatCompletionsToolOf(contract: ToolContract, strict = false): ChatCompletionsTool {
  const { name, description } = contract;
  return { type: 'function', function: { name, description, parameters: parametersOf(contract, strict), ...(strict ? { strict: true as const } : {}) } };
}

export function responsesToolOf(contract: ToolContract, strict = false): ResponsesTool {
  return { type: 'function', name: contract.name, description: contract.description, parameters: parametersOf(contract, strict), strict };
}

export function anthropicToolOf(contract: ToolContract): AnthropicTool {
  return { name: contract.name, description: contract.description, input_schema: objectSchema(contract.input) };
}

/** The MCP tools/list entry of a tool (the MCP server answers tools/list with these). */
export function mcpToolOf(contract: ToolContract): McpTool {
  const { output } = contract;
  return {
    name: contract.name,
    title: contract.annotations.title,
    description: contract.description,
    inputSchema: objectSchema(contract.input),
    // MCP requires an object schema for a tool's structured result: tools with other results have none.
    ...(output['type'] === 'object' ? { outputSchema: output as ObjectSchema } : {}),
    annotations: contract.annotations,
  };
}

function objectSchema(schema: Schema): ObjectSchema {
  if (schema['type'] !== 'object') throw new Error('a tool input schema has an object at its root');
  return schema as ObjectSchema;
}

/** The listing of tool contracts in one format; `prefix` is where their routes live. */
export function buildListing(contracts: readonly ToolContract[], format: ListingFormat, prefix: string, strict = false): unknown {
  switch (format) {
    case 'openai':
      return contracts.map((contract) => chatCompletionsToolOf(contract, strict));
    case 'openai-responses':
      return contracts.map((contract) => responsesToolOf(contract, strict));
    case 'anthropic':
      return contracts.map(anthropicToolOf);
    case 'mcp':
      return { tools: contracts.map(mcpToolOf) };
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
