import type { FieldError } from './validate.js';

// A list's pages, as an API's own pagination serves them: the page size a request asks for (or the document's
// default for it), and where the page starts (an offset, a page number, a cursor the mock handed out, or the id
// of the record to start after). The parameters are known by the names APIs give them.

const SIZE = /^(limit|per_?page|page_?size|max_?results|\$?top|size)$/i;
const OFFSET = /^(offset|\$?skip|start)$/i;
const PAGE = /^(page|page_?number)$/i;
const CURSOR = /^(cursor|page_?token|next_?token|continuation_?token|marker)$/i;
const AFTER = /^(starting_?after|after)$/i;
/** The members of a list answer the next page's cursor goes in, and the one saying whether there is more. */
export const NEXT_MEMBER = /^(next(_?cursor|_?page_?token|_?token)?|cursor)$/i;
export const MORE_MEMBER = /^(has_?more|more)$/i;

const CURSOR_PREFIX = 'mc1.';

export interface Page {
  /** The index of the page's first record, and how many it holds at most (all when absent). */
  start: number;
  size?: number;
}

/** A parameter as the mock reads it: its name, and its schema's `default`. */
interface Declared {
  name: string;
  default?: unknown;
}

/** The page a list request asks for, from the query parameters its operation declares; a bad cursor is an error. */
export function pageOf(params: Record<string, unknown>, declared: readonly Declared[], ids: readonly string[], errors: FieldError[]): Page {
  const sizeParam = declared.find((param) => SIZE.test(param.name));
  const given = sizeParam === undefined ? undefined : (params[sizeParam.name] ?? sizeParam.default);
  const size = typeof given === 'number' && Number.isInteger(given) && given > 0 ? given : undefined;
  let start = 0;
  for (const param of declared) {
    const value = params[param.name];
    if (value === undefined || value === null || value === '') continue;
    if (OFFSET.test(param.name) && typeof value === 'number') start = Math.max(0, value);
    else if (PAGE.test(param.name) && typeof value === 'number' && size !== undefined) start = Math.max(0, value - 1) * size;
    else if (CURSOR.test(param.name)) {
      const offset = cursorOffset(value);
      if (offset === undefined) errors.push({ field: param.name, message: 'is not a cursor this API handed out' });
      else start = offset;
    } else if (AFTER.test(param.name)) {
      const index = ids.indexOf(String(value));
      if (index < 0) errors.push({ field: param.name, message: `names no record (${String(value)})` });
      else start = index + 1;
    }
  }
  return size === undefined ? { start } : { start, size };
}

export const cursorFor = (offset: number): string => CURSOR_PREFIX + Buffer.from(`offset:${offset}`).toString('base64url');

function cursorOffset(value: unknown): number | undefined {
  if (typeof value !== 'string' || !value.startsWith(CURSOR_PREFIX)) return undefined;
  const match = /^offset:(\d{1,9})$/.exec(Buffer.from(value.slice(CURSOR_PREFIX.length), 'base64url').toString());
  return match ? Number(match[1]) : undefined;
}
