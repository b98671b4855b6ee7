import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A WebSocket handshake answered by anything but the WebSocket route: its connection belongs to no HTTP
 * server (the upgrade took it from Node's), so it is closed once the answer is sent, or it stays open for ever.
 */
export function closeUpgradeWhenAnswered(request: FastifyRequest, reply: FastifyReply): void {
  if (request.headers.upgrade !== undefined) reply.raw.once('finish', () => request.raw.socket.destroy());
}
