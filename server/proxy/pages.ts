import { isObject } from '../../lib/object.js';

// Partial pages of a proxied answer: the truncated hazard cuts a list and hands out a page token; a request
// carrying it gets the rest of the same answer from the proxy, as an API's own pagination would serve it.

/** The query parameter a next page is asked for with. */
export const PAGE_TOKEN = 'page_token';

const PREFIX = 'pt1.';

export const pageToken = {
  make: (offset: number): string => PREFIX + Buffer.from(`offset:${offset}`).toString('base64url'),
  /** Whether a value is one of the proxy's tokens (an upstream's own page_token is passed on). */
  ours: (value: unknown): value is string => typeof value === 'string' && value.startsWith(PREFIX) && /^offset:\d{1,9}$/.test(decode(value)),
  /** The offset a token stands for; 0 for no token (or one of the upstream's). */
  offset: (value: unknown): number => (pageToken.ours(value) ? Number(decode(value).slice(7)) : 0),
};

const decode = (value: string) => Buffer.from(value.slice(PREFIX.length), 'base64url').toString();

/** Where an answer's list is: the answer itself (undefined), or its first member holding a list of objects. */
export function listOf(result: unknown): string | undefined {
  if (!isObject(result)) return undefined;
  return Object.keys(result).find((key) => {
    const value = result[key];
    return Array.isArray(value) && value.length > 0 && value.every(isObject);
  });
}

/** The answer from `offset` on (its list cut at the front), as the page a token asks for. */
export function fromOffset(result: unknown, offset: number): unknown {
  if (offset === 0) return result;
  if (Array.isArray(result)) return result.slice(offset);
  const member = listOf(result);
  if (member === undefined || !isObject(result)) return result;
  return { ...result, [member]: (result[member] as unknown[]).slice(offset) };
}
