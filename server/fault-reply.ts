import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FaultResponse } from '../hazards/fault.js';

/**
 * Answers as a hazard decided: a raw HTTP response in another server's style, or a fault of the
 * connection itself (reset, closed without an answer, a body cut short, broken JSON).
 */
export function sendFault(request: FastifyRequest, reply: FastifyReply, fault: FaultResponse): FastifyReply {
  if (fault.type === 'http') {
    return reply
      .code(fault.status)
      .headers(fault.headers ?? {})
      .type(fault.contentType)
      .send(fault.body);
  }
  const socket = request.raw.socket;
  switch (fault.mode) {
    case 'malformed':
      return reply
        .code(200)
        .headers(fault.headers ?? {})
        .type('application/json; charset=utf-8')
        .send(fault.body);
    case 'reset':
      reply.hijack();
      socket.resetAndDestroy();
      return reply;
    case 'empty':
      reply.hijack();
      socket.end();
      socket.destroySoon();
      return reply;
    case 'truncated': {
      reply.hijack();
      const length = Buffer.byteLength(fault.body);
      const extra = Object.entries(fault.headers ?? {})
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${length * 2 + 17}\r\n${extra}\r\n${fault.body}`);
      socket.destroySoon();
      return reply;
    }
  }
}
