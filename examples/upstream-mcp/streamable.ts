import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { HelpDesk } from './desk.js';
import { buildMcpServer } from './server.js';

// The help desk over Streamable HTTP at /mcp, with stateful sessions: an initialize opens one (its id in
// Mcp-Session-Id), later requests name it, DELETE ends it. Every session works on the same desk.

export const MCP_PATH = '/mcp';

export interface McpHttp {
  server: Server;
  /** Ends every session, then stops listening. */
  close(): Promise<void>;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function rpcError(response: ServerResponse, status: number, code: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** An HTTP server (not listening yet) serving the desk's MCP server. */
export function mcpHttp(desk: HelpDesk = new HelpDesk()): McpHttp {
  const sessions = new Map<string, StreamableHTTPServerTransport>();

  async function open(): Promise<StreamableHTTPServerTransport> {
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await buildMcpServer(desk).connect(transport);
    return transport;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== MCP_PATH) return rpcError(response, 404, -32601, `MCP is served at ${MCP_PATH}.`);
    let body: unknown;
    if (request.method === 'POST') {
      try {
        body = await readJson(request);
      } catch {
        return rpcError(response, 400, -32700, 'The body is not JSON.');
      }
    }
    const id = request.headers['mcp-session-id'];
    let transport: StreamableHTTPServerTransport | undefined;
    if (typeof id === 'string') {
      transport = sessions.get(id);
      if (!transport) return rpcError(response, 404, -32001, `No session '${id}': initialize a new one.`);
    } else if (request.method === 'POST' && isInitializeRequest(body)) {
      transport = await open();
    } else {
      return rpcError(response, 400, -32000, 'No Mcp-Session-Id header: the first request of a session must be initialize.');
    }
    await transport.handleRequest(request, response, body);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) rpcError(response, 500, -32603, error instanceof Error ? error.message : String(error));
    });
  });

  async function close(): Promise<void> {
    await Promise.all([...sessions.values()].map((transport) => transport.close()));
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  }

  return { server, close };
}
