import { type JsonTextError, parseJsonText } from '../../lib/json.js';
import { type ProblemError, problemError } from '../core/problem.js';

// An upstream's answer as data that hazards, the journal and the client's reply can walk safely: JSON parsed
// without prototype keys and at most MAX_ANSWER_DEPTH deep. One the proxy cannot read is the proxy's 502
// (`upstream_invalid_answer`), never a crash halfway through a call.

/** The deepest nesting of objects and arrays read in an upstream's answer (a client's own bodies: 64). */
export const MAX_ANSWER_DEPTH = 256;

/** A JSON media type: `application/json` or a `+json` suffix (not `json-seq` or `ndjson`, which are lines of JSON). */
export const isJsonType = (type: string | undefined): boolean => /^[^;]*(?:\/json|\+json)\s*(?:;|$)/i.test(type ?? '');

/** An HTTP answer's body (as text) as data: JSON when its type says so (and then it must be JSON), its text otherwise, null when empty. */
export function answerData(text: string, type: string | undefined, status: number): unknown {
  if (text.length === 0) return null;
  if (!isJsonType(type)) return text;
  try {
    return parseJsonText(text, MAX_ANSWER_DEPTH);
  } catch (error) {
    const why =
      (error as JsonTextError).reason === 'syntax' ? `says it is JSON (${type}) but is not: ${(error as Error).message}` : reasonOf(error as JsonTextError);
    throw invalidAnswer(why, status);
  }
}

/** An HTTP status the proxy can answer with: a final one HTTP defines the class of (200-599). */
export function checkStatus(status: number): void {
  if (status < 200 || status > 599) throw invalidAnswer(`has the status ${status}, which is no final HTTP status`, status);
}

/** A text that may hold JSON (an MCP tool's text content): its value when it is JSON, the text when it is not. */
export function jsonOrText(text: string): unknown {
  try {
    return parseJsonText(text, MAX_ANSWER_DEPTH);
  } catch (error) {
    if ((error as JsonTextError).reason === 'syntax') return text;
    throw invalidAnswer(reasonOf(error as JsonTextError));
  }
}

/** A value another parser made (an MCP message): refused when nested deeper than MAX_ANSWER_DEPTH. */
export function checkDepth(value: unknown): void {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth === MAX_ANSWER_DEPTH) throw invalidAnswer(TOO_DEEP);
    for (const member of Object.values(item)) stack.push([member, depth + 1]);
  }
}

const TOO_DEEP = `is nested deeper than ${MAX_ANSWER_DEPTH} levels, more than the proxy reads`;

const reasonOf = (error: JsonTextError): string =>
  error.reason === 'too_deep' ? TOO_DEEP : 'holds a "__proto__" or "constructor.prototype" key, which the proxy refuses to read';

const invalidAnswer = (why: string, status?: number): ProblemError =>
  problemError(502, 'upstream_invalid_answer', `The upstream's answer ${why}.`, status === undefined ? {} : { upstream_status: status });
