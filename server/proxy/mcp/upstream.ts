import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Implementation, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HazardDomain, ToolContract } from '../../../hazards/kind.js';
import type { ListingWatch } from '../../core/mcp/listing-watch.js';
import { McpSessions } from '../../core/mcp/sessions.js';
import type { Session } from '../../core/sessions/session.js';
import type { McpUpstream } from '../config.js';
import type { ServingUpstream } from '../routes.js';
import { proxyScenarios } from '../scenarios.js';
import { checkRules, contractOf } from '../tools.js';
import { serveMcp } from './http.js';
import { type McpTool, type McpTools, mcpTools } from './tools.js';

/** How long an MCP session of the proxy lives idle. */
export const MCP_SESSION_IDLE_MS = 3_600_000;

/**
 * One declared MCP upstream, connected: its tools are the operations of the hazard domain named like the
 * proxy, served to MCP clients at `/proxy/{name}/mcp`.
 */
export class McpProxy implements ServingUpstream {
  readonly kind = 'mcp';
  private current: McpTools;
  private sessions: McpSessions | undefined;
  /** The listings of the open MCP sessions: told when the upstream's tools change. */
  private readonly watches = new Set<ListingWatch>();
  private changed: (() => void) | undefined;

  constructor(
    readonly name: string,
    readonly config: McpUpstream,
    readonly client: Client,
    listed: readonly Tool[],
    /** Closes the connection (and the child process). */
    private readonly disconnect: () => Promise<void>,
  ) {
    this.current = this.checked(listed);
  }

  get timeoutMs(): number {
    return this.config.timeout_ms;
  }

  /** The upstream's name and version, as the proxy introduces itself. */
  get serverInfo(): Implementation {
    return this.client.getServerVersion() ?? { name: this.name, version: '0.0.0' };
  }

  get instructions(): string | undefined {
    return this.client.getInstructions();
  }

  tools(): readonly McpTool[] {
    return [...this.current.byWord.values()];
  }

  /** The tool an MCP client calls by its original name. */
  toolNamed(name: string): McpTool | undefined {
    return this.current.byName.get(name);
  }

  domain(): HazardDomain {
    const tools = this.tools();
    return {
      name: this.name,
      tools: [...tools],
      hazards: proxyScenarios(
        tools.map((tool) => tool.operation),
        this.config.rules,
        true,
      ),
    };
  }

  contracts(): ToolContract[] {
    return this.tools().map(contractOf);
  }

  /** The registry's callback when the upstream's tools change (it attaches the domains again). */
  watch(changed: () => void): void {
    this.changed = changed;
  }

  /** A session's listing, told when the upstream's tools change; returns how to stop. */
  watchListing(watch: ListingWatch): () => void {
    this.watches.add(watch);
    return () => void this.watches.delete(watch);
  }

  /** The upstream's tools as it lists them now (after its tools/list_changed). */
  refresh(listed: readonly Tool[]): void {
    this.current = this.checked(listed);
    this.changed?.();
    for (const watch of this.watches) watch.check();
  }

  async serve(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, session: Session, rest: string): Promise<FastifyReply> {
    this.sessions ??= new McpSessions(() => app.sessions.maxSessions, MCP_SESSION_IDLE_MS);
    return serveMcp(this, this.sessions, app, request, reply, session, rest);
  }

  /** Ends the MCP sessions of the proxy's clients (their open streams would hold the server's close). */
  async endSessions(): Promise<void> {
    await this.sessions?.closeAll();
  }

  async close(): Promise<void> {
    await this.endSessions();
    await this.disconnect();
  }

  private checked(listed: readonly Tool[]): McpTools {
    const tools = mcpTools(listed);
    checkRules(this.name, this.config.rules, tools.byWord, 'none: the upstream lists no tools');
    return tools;
  }
}
