import { isObject } from '../../lib/object.js';

// What the journal keeps of a proxied request never holds a credential: members and query parameters whose
// names say they carry one are replaced. Headers are not journaled at all.

/** Names that are a credential only as a whole ("author" is not). */
const SECRET_NAME = /^(auth|authorization|token|cvv|cvc)$/i;
const SECRET_PART = /pass(word|wd|phrase)|secret|[-_]token$|api[-_]?key|credential|private[-_]?key|session[-_]?id|cookie|signature|card[-_]?number/i;
/** Pagination tokens are not credentials. */
const PAGINATION = /^(next_)?page_token$/i;

export const REDACTED = '[redacted]';

/** Whether a member or parameter name says it carries a credential. */
export const isSecret = (name: string): boolean => (SECRET_NAME.test(name) || SECRET_PART.test(name)) && !PAGINATION.test(name);

/** The value with every secret member (at any depth) replaced. */
export function redacted(value: unknown, depth = 0): unknown {
  if (depth > 32) return value;
  if (Array.isArray(value)) return value.map((item) => redacted(item, depth + 1));
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, isSecret(key) ? REDACTED : redacted(item, depth + 1)]));
}

/** A path with the values of secret query parameters replaced. */
export function redactedPath(path: string): string {
  const mark = path.indexOf('?');
  if (mark < 0) return path;
  const query = new URLSearchParams(path.slice(mark + 1));
  for (const key of new Set(query.keys())) if (isSecret(key)) query.set(key, REDACTED);
  return `${path.slice(0, mark)}?${query.toString()}`;
}
