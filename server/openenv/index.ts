import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { BODY_LIMIT } from '../core/json-body.js';
import { Episodes } from './episodes.js';
import { openenvHttpRoutes } from './http.js';
import { openenvMcpSocketRoute } from './mcp-socket.js';
import { SocketPlaces } from './socket.js';
import { openenvSocketRoute } from './ws.js';

/**
 * OpenEnv's protocol under /openenv/ (a client's base_url): WebSocket /ws, HTTP reset/step/state, schema, metadata,
 * health, tasks, openapi.json, and its JSON-RPC tools over HTTP POST /mcp and the WebSocket /mcp.
 */
export async function openenvRoutes(app: FastifyInstance, { idleMs }: { idleMs: number }): Promise<void> {
  // Its hooks run on /openenv's routes only; the other routes close a handshake they answer (access.ts, errors.ts).
  await app.register(websocket, { options: { maxPayload: BODY_LIMIT } });
  const episodes = new Episodes(app);
  const places = new SocketPlaces(app);
  await app.register(openenvHttpRoutes, { episodes });
  await app.register(openenvSocketRoute, { episodes, idleMs, places });
  await app.register(openenvMcpSocketRoute, { episodes, idleMs, places });
}
