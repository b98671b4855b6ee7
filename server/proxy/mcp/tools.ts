import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { type Operation, type Parameter, toolWord } from '../operations.js';
import { type ProxyTool, toolOf } from '../tools.js';

// An MCP upstream's tools as the proxy's operations: each named as a flag word (HAZARD__…__HELPDESK__CREATE_TICKET),
// its arguments the parameters, its read-only hint telling reads from writes.

/** An upstream tool as the hazard engine knows it, with the upstream's own listing of it. */
export interface McpTool extends ProxyTool {
  /** The tool as the upstream lists it (its original name, schemas and annotations). */
  readonly listed: Tool;
}

/** The upstream's tools, by flag word and by original name. */
export interface McpTools {
  readonly byWord: ReadonlyMap<string, McpTool>;
  readonly byName: ReadonlyMap<string, McpTool>;
}

export function mcpTools(listed: readonly Tool[]): McpTools {
  const byWord = new Map<string, McpTool>();
  const byName = new Map<string, McpTool>();
  for (const tool of listed) {
    if (byName.has(tool.name)) continue;
    const word = uniqueWord(toolWord(tool.name), byWord);
    const found: McpTool = { ...toolOf(operationOf(tool, word)), listed: tool };
    byWord.set(word, found);
    byName.set(tool.name, found);
  }
  return { byWord, byName };
}

/** A tool as an operation: POST /tools/{name}, its input schema's properties as body parameters. */
export function operationOf(tool: Tool, name: string): Operation {
  const schema = tool.inputSchema;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const params: Parameter[] = Object.entries(schema.properties ?? {}).map(([param, raw]) => {
    const property = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
    const description = property['description'];
    return { name: param, in: 'body', required: required.has(param), schema: property, ...(typeof description === 'string' ? { description } : {}) };
  });
  return {
    name,
    method: 'POST',
    path: `/tools/${tool.name}`,
    writes: tool.annotations?.readOnlyHint !== true,
    ...(tool.description ? { description: tool.description } : {}),
    params,
  };
}

/** Two names of one word (`getTicket`, `get_ticket`): the second gets a number. */
function uniqueWord(word: string, taken: ReadonlyMap<string, unknown>): string {
  if (!taken.has(word)) return word;
  let n = 2;
  while (taken.has(`${word}_${n}`)) n += 1;
  return `${word}_${n}`;
}
