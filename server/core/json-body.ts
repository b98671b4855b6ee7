import type { FastifyInstance } from 'fastify';
import { type JsonTextError, MAX_JSON_DEPTH, parseJsonText } from '../../lib/json.js';
import { problemError } from './problem.js';

/** Largest request body, in bytes. */
export const BODY_LIMIT = 1_048_576;

/**
 * JSON is the only body the server reads. It is parsed with its limits checked (no forbidden
 * keys, bounded nesting) and the reason kept, so the problem says what is wrong: where the
 * syntax breaks, which key is refused, which limit is passed.
 */
export function jsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, body, done) => {
    const text = body as string;
    if (text.trim().length === 0) {
      done(
        problemError(400, 'empty_json_body', 'The body is empty although Content-Type is application/json: send {} for a call without arguments.'),
        undefined,
      );
      return;
    }
    try {
      done(null, parseJsonText(text));
    } catch (error) {
      done(bodyProblem(error as JsonTextError), undefined);
    }
  });
}

function bodyProblem(error: JsonTextError) {
  switch (error.reason) {
    case 'too_deep':
      return problemError(400, 'json_too_deep', `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels of objects and arrays, the limit.`, {
        limit: MAX_JSON_DEPTH,
      });
    case 'forbidden_key':
      return problemError(400, 'forbidden_json_key', 'The JSON body has a forbidden "__proto__" or "constructor.prototype" key: rename or remove it.');
    case 'syntax':
      return problemError(400, 'malformed_json', `The body is not valid JSON (${error.message}).`);
  }
}
