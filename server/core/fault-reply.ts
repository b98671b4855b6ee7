import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Fault } from '../../hazards/fault.js';

/**
 * Answers as a hazard decided: a raw HTTP response in another server's style, or a fault of the
 * connection itself (reset, closed without an answer, a body cut short, broken JSON). `text` is the
 * answer as this exchange sends it (a damaged answer's text is already cut or broken); `headers`
 * are the exchange's own (an MCP session id), which a damaged answer still carries.
 */
export function sendFault(request: FastifyRequest, reply: FastifyReply, fault: Fault, text: string, headers: Record<string, string> = {}): FastifyReply {
  if (fault.type === 'http') {
    return reply
      .code(fault.status)
      .headers({ ...headers, ...fault.headers })
      .type(fault.contentType)
      .send(fault.body);
  }
  const socket = request.raw.socket;
  switch (fault.mode) {
    case 'malformed':
      return reply
        .code(200)
        .headers({ ...headers, ...fault.headers })
        .type('application/json; charset=utf-8')
        .send(text);
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
      const length = Buffer.byteLength(text);
      const extra = Object.entries({ ...headers, ...fault.headers })
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${length * 2 + 17}\r\n${extra}\r\n${text}`);
      socket.destroySoon();
      return reply;
    }
  }
}
