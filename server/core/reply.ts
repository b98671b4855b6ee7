import type { FastifyReply } from 'fastify';

export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Sends text that is already JSON, skipping schema serialization: tool results may be
 * reshaped by hazards, and large bodies (states, journals) are stringified once.
 */
// biome-ignore lint/suspicious/noExplicitAny: any reply type of any route: this helper only sets the type and the body
export function sendJsonText(reply: FastifyReply<any, any, any, any, any, any, any, any>, text: string, type = JSON_TYPE) {
  return (reply as FastifyReply).type(type).send(text);
}
