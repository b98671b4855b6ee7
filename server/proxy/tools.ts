import { z } from 'zod';
import { annotationsOf } from '../../hazards/contract.js';
import type { HazardTool, ToolContract } from '../../hazards/kind.js';
import { ProxyConfigError, type ProxyRule } from './config.js';
import type { Operation } from './operations.js';

// What every kind of upstream shares: its operations as tools of a hazard domain, as listings show them,
// and the check of the config's rules against them.

/** An upstream operation as the hazard engine knows a tool. */
export interface ProxyTool extends HazardTool {
  readonly operation: Operation;
}

/** An operation as a tool of the proxy's hazard domain. */
export function toolOf(operation: Operation): ProxyTool {
  return {
    name: operation.name,
    description: operation.description || `${operation.method} ${operation.path}`,
    // Validation is the upstream's: every argument passes the proxy.
    input: z.looseObject({}),
    output: z.unknown(),
    mutates: operation.writes,
    operation,
  };
}

/** An operation as a tool contract: its parameters as the input schema's properties. */
export function contractOf(tool: ProxyTool): ToolContract {
  const params = tool.operation.params ?? [];
  const properties = Object.fromEntries(params.map((p) => [p.name, { ...p.schema, ...(p.description ? { description: p.description } : {}) }]));
  const required = params.filter((p) => p.required).map((p) => p.name);
  return {
    name: tool.name,
    description: tool.description,
    input: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) },
    output: {},
    mutates: tool.mutates,
    annotations: annotationsOf(tool),
  };
}

/** The config's rules name known operations, each rule once: a ProxyConfigError names the first that does not. */
export function checkRules(name: string, rules: readonly ProxyRule[], tools: ReadonlyMap<string, ProxyTool>, none: string): void {
  const known = () => [...tools.keys()].join(', ') || none;
  const seen = new Set<string>();
  rules.forEach((rule, i) => {
    const key = `${rule.kind} ${rule.operation}`;
    if (seen.has(key)) throw new ProxyConfigError(`${name}.rules.${i}: a second ${rule.kind} rule for ${rule.operation}`);
    seen.add(key);
    for (const operation of rule.kind === 'conflict' ? [rule.operation, rule.authority] : [rule.operation]) {
      if (!tools.has(operation)) throw new ProxyConfigError(`${name}.rules.${i}: unknown operation '${operation}' (known: ${known()})`);
    }
  });
}
