import { jsonSchemaOf } from '../lib/json-schema.js';
import type { HazardTool, ToolAnnotations, ToolContract } from './kind.js';

/** The contract of a tool as its declaration gives it (listings and OpenAPI start from it). */
export function contractOf(tool: HazardTool, name = tool.name): ToolContract {
  return {
    name,
    description: tool.description,
    input: jsonSchemaOf(tool.input, 'input'),
    output: jsonSchemaOf(tool.output, 'output'),
    mutates: tool.mutates,
    annotations: annotationsOf(tool),
  };
}

/**
 * A read changes nothing: it is not destructive, and repeating it has no effect. A write that
 * does not declare its effect is assumed destructive and not idempotent, as MCP's defaults assume.
 */
export function annotationsOf(tool: HazardTool): ToolAnnotations {
  const effect = tool.mutates ? (tool.effect ?? { destructive: true, idempotent: false }) : { destructive: false, idempotent: true };
  return {
    title: tool.title ?? titleOf(tool.name),
    readOnlyHint: !tool.mutates,
    destructiveHint: effect.destructive,
    idempotentHint: effect.idempotent,
    openWorldHint: false,
  };
}

/** `cancel_pending_order` → `Cancel pending order`. */
function titleOf(name: string): string {
  const words = name.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
