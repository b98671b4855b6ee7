import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { WireFault } from './render.js';

/** One HTTP exchange carrying MCP requests: a fault of the connection lands on it. */
export interface Exchange {
  fault?: WireFault;
}

/** An MCP session over Streamable HTTP: its transport, its server, and the wildtools session it is bound to. */
export interface McpSession {
  readonly view: string;
  readonly session: string;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: Server;
  /** JSON-RPC request id → the exchange carrying it, while it is answered. */
  readonly exchanges: Map<string | number, Exchange>;
  lastUsedMs: number;
  /** Whether the client holds the GET stream server notifications travel on. */
  streamOpen: boolean;
  /** A tools/list_changed notification waiting for that stream. */
  listChangedPending: boolean;
}

/** Live MCP sessions, bounded like wildtools sessions: idle ones expire, and no more than the cap live at once. */
export class McpSessions {
  private readonly sessions = new Map<string, McpSession>();

  constructor(
    private readonly limit: () => number,
    private readonly ttlMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  get(id: string): McpSession | undefined {
    const session = this.sessions.get(id);
    if (session) session.lastUsedMs = this.now();
    return session;
  }

  add(id: string, session: McpSession): void {
    this.sessions.set(id, session);
  }

  remove(id: string): void {
    this.sessions.delete(id);
  }

  /** Whether one more session fits, once idle ones are closed. */
  room(): boolean {
    const cutoff = this.now() - this.ttlMs;
    for (const session of [...this.sessions.values()]) if (session.lastUsedMs <= cutoff) void session.transport.close();
    return this.sessions.size < this.limit();
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((session) => session.transport.close()));
  }
}
