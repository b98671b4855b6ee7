import type { HazardDomain, ToolContract } from '../../hazards/kind.js';
import type { AttachedDatabases } from '../core/data/attached.js';
import type { DatabaseTables } from '../core/data/base.js';
import { type HttpUpstream, isMcpUpstream, type McpUpstream, ProxyConfigError, type ProxyConfig, type ProxyUpstream } from './config.js';
import { loadDocument } from './document.js';
import { Mock } from './mock/mock.js';
import { loadSeedFile } from './mock/seed-file.js';
import { HttpProxy } from './upstream.js';

/** What every kind of proxied upstream offers the registry. */
export interface Upstream {
  readonly name: string;
  readonly kind: 'http' | 'mcp';
  readonly config: ProxyUpstream;
  /** Its operations (or tools) as a hazard domain. */
  domain(): HazardDomain;
  contracts(): ToolContract[];
  /** The records a mock keeps per session, starting from these (a mock only). */
  readonly database?: DatabaseTables;
  /** Stops what it started (an MCP child process, its connection). */
  close?(): Promise<void>;
  /** Takes the registry's callback for when its operations change on their own (an MCP upstream's tools/list_changed). */
  watch?(changed: () => void): void;
}

/** How an MCP upstream is connected: its own module, given to the registry so this file stays transport-free. */
export type McpConnector = (name: string, config: McpUpstream) => Promise<Upstream>;

/** Where the registry tells the hazard engine which domains the proxies add. */
export interface DomainSink {
  attach(domains: readonly HazardDomain[]): void;
}

/** Builds one upstream from its declaration: its OpenAPI document read, or its MCP server connected. */
export async function buildUpstream(name: string, config: ProxyUpstream, where: string, connectMcp?: McpConnector): Promise<Upstream> {
  if (isMcpUpstream(config)) {
    if (!connectMcp) throw new ProxyConfigError(`${where}: ${name}: MCP upstreams are not available here`);
    return connectMcp(name, config);
  }
  const http = config as HttpUpstream;
  const document = http.openapi === undefined ? undefined : await loadDocument(http.openapi, `${where}: ${name}`);
  if (http.upstream !== undefined || http.replay !== undefined || document === undefined) return HttpProxy.build(name, http, document, where);
  const seed = http.mock?.seed ?? (http.mock?.seed_file === undefined ? {} : loadSeedFile(http.mock.seed_file, `${where}: ${name}`));
  return HttpProxy.build(name, http, document, where, new Mock(name, document, seed, http.mock));
}

/** Every upstream of a configuration, built in order; the first failure names its upstream. */
export async function buildUpstreams(config: ProxyConfig, where: string, connectMcp?: McpConnector): Promise<Upstream[]> {
  const built: Upstream[] = [];
  try {
    for (const [name, upstream] of Object.entries(config)) built.push(await buildUpstream(name, upstream, where, connectMcp));
  } catch (error) {
    await Promise.all(built.map((upstream) => upstream.close?.()));
    throw error;
  }
  return built;
}

/**
 * The declared upstreams, by name: nothing else is ever forwarded to. Each change re-attaches their
 * domains to the hazard engine, so settings and sessions see the operations at once.
 */
export class Proxies {
  private readonly upstreams = new Map<string, Upstream>();

  constructor(
    private readonly hazards: DomainSink,
    /** Names the proxies may not take (the built-in domains). */
    private readonly reserved: ReadonlySet<string>,
    initial: readonly Upstream[] = [],
    readonly connectMcp?: McpConnector,
    /** Where sessions find the mocks' records, by proxy name. */
    private readonly attached?: AttachedDatabases,
  ) {
    for (const upstream of initial) this.adopt(upstream);
    if (initial.length > 0) this.attach();
  }

  get(name: string): Upstream | undefined {
    return this.upstreams.get(name);
  }

  get names(): string[] {
    return [...this.upstreams.keys()];
  }

  list(): Upstream[] {
    return [...this.upstreams.values()];
  }

  /** Declares (or replaces) an upstream at runtime. */
  async put(name: string, config: ProxyUpstream): Promise<{ upstream: Upstream; created: boolean }> {
    if (this.reserved.has(name)) throw new ProxyConfigError(`${name}: the name of a built-in domain`);
    const upstream = await buildUpstream(name, config, `proxy ${name}`, this.connectMcp);
    const previous = this.upstreams.get(name);
    this.adopt(upstream);
    try {
      this.attach();
    } catch (error) {
      if (previous) this.adopt(previous);
      else this.forget(name);
      await upstream.close?.();
      throw error;
    }
    await previous?.close?.();
    return { upstream, created: previous === undefined };
  }

  /** Registers an upstream, re-attached whenever its operations change. */
  private adopt(upstream: Upstream): void {
    this.upstreams.set(upstream.name, upstream);
    this.attached?.set(upstream.name, upstream.database);
    upstream.watch?.(() => {
      if (this.upstreams.get(upstream.name) === upstream) this.attach();
    });
  }

  async delete(name: string): Promise<boolean> {
    const upstream = this.upstreams.get(name);
    if (!upstream) return false;
    this.forget(name);
    this.attach();
    await upstream.close?.();
    return true;
  }

  private forget(name: string): void {
    this.upstreams.delete(name);
    this.attached?.set(name, undefined);
  }

  /** Tells the hazard engine the proxies' domains (after a change, or an operation seen for the first time). */
  attach(): void {
    this.hazards.attach(this.list().map((upstream) => upstream.domain()));
  }

  async close(): Promise<void> {
    await Promise.all(this.list().map((upstream) => upstream.close?.()));
  }
}
