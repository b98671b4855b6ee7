import type { HazardDomain, ToolContract } from '../../hazards/kind.js';
import type { DatabaseTables } from '../core/data/base.js';
import type { HttpUpstream } from './config.js';
import type { Mock } from './mock/mock.js';
import { type Operation, OperationMap, patternOperation } from './operations.js';
import { Recorder } from './record.js';
import { Replayer } from './replay.js';
import { proxyScenarios } from './scenarios.js';
import { checkRules, contractOf, type ProxyTool, toolOf } from './tools.js';

export type { ProxyTool } from './tools.js';

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
    /** Where exchanges with the upstream are recorded (`record`). */
    readonly recorder?: Recorder,
    /** The recording served in place of the upstream (`replay`). */
    readonly replayer?: Replayer,
    /** The mock that answers in place of an upstream, when the declaration has no upstream URL. */
    readonly mock?: Mock,
  ) {
    for (const operation of map.operations) this.tools.set(operation.name, toolOf(operation));
    checkRules(name, config.rules, this.tools, 'none: declare operations or an OpenAPI document');
  }

  /** The records a mock starts every session from. */
  get database(): DatabaseTables | undefined {
    return this.mock?.database;
  }

  static build(name: string, config: HttpUpstream, document: Record<string, unknown> | undefined, where = 'proxy', mock?: Mock): HttpProxy {
    const map = document ? new OperationMap(document) : OperationMap.declared(config.operations ?? {});
    const recorder = config.record === undefined ? undefined : new Recorder(config.record, config, `${where}: ${name}`);
    const replayer = config.replay === undefined ? undefined : new Replayer(config.replay, config, `${where}: ${name}`);
    return new HttpProxy(name, config, document, map, recorder, replayer, mock);
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
