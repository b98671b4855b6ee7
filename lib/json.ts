import secureJson from 'secure-json-parse';

/** Deepest nesting of objects and arrays a JSON text from outside may have. */
export const MAX_JSON_DEPTH = 64;

export type JsonProblem = 'syntax' | 'forbidden_key' | 'too_deep';

export class JsonTextError extends Error {
  constructor(
    readonly reason: JsonProblem,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Parses JSON from outside (a request body, a settings file): no `__proto__` or
 * `constructor.prototype` key (JSON.parse would make one an own key that most code then
 * misreads), and no nesting deeper than `maxDepth`, so that nothing which later walks the value
 * recursively (validation, the journal, a log line) can overflow the stack.
 */
export function parseJsonText(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  const depth = nestingDepth(text, maxDepth);
  if (depth > maxDepth) throw new JsonTextError('too_deep', `nested deeper than ${maxDepth} levels`);
  try {
    return secureJson.parse(text, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    const message = (error as Error).message;
    if (/prototype/i.test(message)) throw new JsonTextError('forbidden_key', 'a forbidden "__proto__" or "constructor.prototype" key');
    throw new JsonTextError('syntax', message);
  }
}

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const OPEN_BRACKET = 91;
const CLOSE_BRACE = 125;
const CLOSE_BRACKET = 93;

/** The nesting depth of a JSON text, counting up to just past `stopAbove`; strings are skipped. */
function nestingDepth(text: string, stopAbove: number): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > stopAbove) return deepest;
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return deepest;
}
