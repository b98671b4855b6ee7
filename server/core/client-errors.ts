import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { own } from '../../lib/own.js';
import { sendProblem } from './errors.js';
import { problem, problemError } from './problem.js';
import { closeUpgradeWhenAnswered } from './upgrade.js';

/**
 * Errors raised below the routes answer in problem JSON too: those of Node's HTTP parser
 * (before a request exists) and those of fastify's router (before a route is found).
 */

const PARSER_ERRORS: Record<string, [status: number, code: string, detail: string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout', 'The request was not received in time.'],
  HPE_HEADER_OVERFLOW: [431, 'headers_too_large', 'The request line and headers are larger than 16 KiB: shorten the URL or the headers.'],
  HPE_INVALID_CONTENT_LENGTH: [400, 'invalid_content_length', 'Content-Length is not a valid length.'],
  HPE_UNEXPECTED_CONTENT_LENGTH: [400, 'invalid_content_length', 'Content-Length cannot be combined with Transfer-Encoding: chunked.'],
};

/** Node's `clientError`: the request could not be parsed; answer, then close the connection. */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const known = error.code === undefined ? undefined : own(PARSER_ERRORS, error.code);
  const [status, code, detail] = known ?? [400, 'malformed_request', `The request is not valid HTTP/1.1 (${error.code ?? error.message}).`];
  const body = JSON.stringify(problem(status, code, detail));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** fastify's `frameworkErrors`: the URL could not be routed (bad percent-encoding, a parameter too long). */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const failure =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? problemError(414, 'url_too_long', 'A segment of the URL is longer than the server accepts (100 characters).')
      : error.code === 'FST_ERR_BAD_URL'
        ? problemError(
            400,
            'bad_url',
            `The URL is not valid (${error.message}): a percent-encoded sequence that does not decode, or a request target that is not a path.`,
          )
        : problemError(400, 'bad_request', error.message);
  closeUpgradeWhenAnswered(request, reply);
  sendProblem(reply, failure);
}
