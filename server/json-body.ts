import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { problemError } from './problem.js';

/**
 * Parses JSON bodies like fastify does (forbidding prototype-poisoning keys) but keeps the
 * reason, so the problem says what is wrong: where the syntax breaks, or which key is refused.
 */
export function jsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.trim().length === 0) {
      done(problemError(400, 'empty_json_body', 'The body is empty although Content-Type is application/json: send {} for a call without arguments.'), undefined);
      return;
    }
    try {
      done(null, secureJson.parse(text, { protoAction: 'error', constructorAction: 'error' }));
    } catch (error) {
      const message = (error as Error).message;
      const forbidden = /prototype/i.test(message);
      const detail = forbidden
        ? 'The JSON body has a forbidden "__proto__" or "constructor.prototype" key: rename or remove it.'
        : `The body is not valid JSON (${message}).`;
      done(problemError(400, forbidden ? 'forbidden_json_key' : 'malformed_json', detail), undefined);
    }
  });
}
