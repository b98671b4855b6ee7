import { z } from 'zod';
import { annotationsOf } from '../../hazards/contract.js';
import type { HazardDomain, HazardTool, ToolContract } from '../../hazards/kind.js';
import { type HttpUpstream, ProxyConfigError, type ProxyRule } from './config.js';
import { type Operation, OperationMap, patternOperation } from './operations.js';
import { proxyScenarios } from './scenarios.js';

/** An upstream operation as the hazard engine knows a tool. */
export interface ProxyTool extends HazardTool {
  readonly operation: Operation;
}

/** Operations named by pattern, without a document, kept per upstream; later new patterns share one name. */
export const MAX_DISCOVERED = 200;

/**
 * One declared HTTP upstream: its operations (from its OpenAPI document, its config, or the patterns its
 * requests show), each a tool of the hazard domain named like the proxy.
 */
export class HttpProxy {
  readonly kind = 'http';
  private readonly tools = new Map<string, ProxyTool>();
  private discovered = 0;

  constructor(
    readonly name: string,
    readonly config: HttpUpstream,
    /** The upstream's OpenAPI document, when configured. */
    readonly document: Record<string, unknown> | undefined,
    private readonly map: OperationMap,
  ) {
    for (const operation of map.operations) this.tools.set(operation.name, toolOf(operation));
    checkRules(name, config.rules, this.tools);
  }

  static build(name: string, config: HttpUpstream, document: Record<string, unknown> | undefined): HttpProxy {
    const map = document ? new OperationMap(document) : OperationMap.declared(config.operations ?? {});
    return new HttpProxy(name, config, document, map);
  }

  /** The tool a request is, and whether it was seen for the first time (a new pattern, without a document). */
  operationOf(method: string, path: string): { tool: ProxyTool; discovered: boolean } | undefined {
    const known = this.map.match(method, path);
    if (known) return { tool: this.tools.get(known.name)!, discovered: false };
    if (this.document) return undefined;
    const pattern = patternOperation(method, path);
    const seen = this.tools.get(pattern.name);
    if (seen) return { tool: seen, discovered: false };
    if (this.discovered >= MAX_DISCOVERED) return { tool: this.overflow(pattern), discovered: false };
    this.discovered += 1;
    const tool = toolOf(pattern);
    this.tools.set(pattern.name, tool);
    return { tool, discovered: true };
  }

  /** Past the bound, requests of new patterns share one operation per method. */
  private overflow(pattern: Operation): ProxyTool {
    const name = `${pattern.method.toLowerCase()}_other`;
    let tool = this.tools.get(name);
    if (!tool) {
      tool = toolOf({ ...pattern, name, path: '/{path}' });
      this.tools.set(name, tool);
    }
    return tool;
  }

  /** The operations as the hazard engine sees a domain: tools and their scenarios. */
  domain(): HazardDomain {
    const tools = [...this.tools.values()];
    return {
      name: this.name,
      tools,
      hazards: proxyScenarios(
        tools.map((tool) => tool.operation),
        this.config.rules,
        this.document !== undefined,
      ),
    };
  }

  /** The operations as listings show tools. */
  contracts(): ToolContract[] {
    return [...this.tools.values()].map(contractOf);
  }

  tool(name: string): ProxyTool | undefined {
    return this.tools.get(name);
  }
}

function toolOf(operation: Operation): ProxyTool {
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
function contractOf(tool: ProxyTool): ToolContract {
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

function checkRules(name: string, rules: readonly ProxyRule[], tools: ReadonlyMap<string, ProxyTool>): void {
  const known = () => [...tools.keys()].join(', ') || 'none: declare operations or an OpenAPI document';
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
