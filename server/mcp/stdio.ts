import type { Readable, Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { DEFAULT_SESSION } from '../core/sessions/store.js';
import { instructionsOf } from './http.js';
import { mcpServer } from './server.js';

export interface StdioOptions {
  /** A domain's name, or `combined` for every tool. */
  view: string;
  /** The session the calls run in (default: `default`). */
  session?: string;
  input?: Readable;
  output?: Writable;
}

/**
 * MCP over stdio for desktop clients: one client, one session. With no HTTP exchange to fail, a
 * fault of the connection is reported as a server wrapping an HTTP API reports its upstream's.
 */
export async function serveMcpStdio(app: FastifyInstance, options: StdioOptions): Promise<{ close(): Promise<void> }> {
  const view = app.views.find((candidate) => candidate.name === options.view);
  if (!view) throw new Error(`no tools named '${options.view}': choose one of ${[...app.registry.domains.keys(), 'combined'].join(', ')}`);
  const session = app.sessions.resolve(options.session ?? DEFAULT_SESSION).id;
  const instructions = await instructionsOf(app, view);
  const server = mcpServer(app, {
    view,
    session,
    ...(instructions !== undefined ? { instructions } : {}),
    fault: () => false,
    listChanged: () => void server.sendToolListChanged(),
  });
  await server.connect(new StdioServerTransport(options.input, options.output));
  return { close: () => server.close() };
}
