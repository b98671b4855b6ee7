import { jsonSchemaOf } from '../lib/json-schema.js';
import type { HazardTool, ToolContract } from './kind.js';

/** The contract of a tool as its declaration gives it (listings and OpenAPI start from it). */
export function contractOf(tool: HazardTool, name = tool.name): ToolContract {
  return { name, description: tool.description, input: jsonSchemaOf(tool.input, 'input'), output: jsonSchemaOf(tool.output, 'output'), mutates: tool.mutates };
}
