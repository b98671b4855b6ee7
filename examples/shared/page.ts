// Cursor pagination over records kept in id order (`c_001`, `c_002`, …), as the upstream examples serve it.
// A cursor names the last record handed out, so a record created or deleted between two pages shifts nothing.

export interface Page<T> {
  items: T[];
  /** The cursor of the next page, or null after the last one. */
  next_cursor: string | null;
}

/** The number in an id such as `c_042`, which orders records. */
const ordinal = (id: string): number => Number(/_(\d+)$/.exec(id)?.[1] ?? Number.NaN);

export const encodeCursor = (id: string): string => Buffer.from(id, 'utf8').toString('base64url');

/** The id a cursor names, or undefined when it is not a cursor this code handed out. */
export function decodeCursor(cursor: string): string | undefined {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  return encodeCursor(id) === cursor && Number.isInteger(ordinal(id)) ? id : undefined;
}

/** At most `limit` records after the one the cursor names (from the first without a cursor). */
export function page<T extends { id: string }>(records: readonly T[], limit: number, after?: string): Page<T> {
  const from = after === undefined ? records : records.filter((record) => ordinal(record.id) > ordinal(after));
  const items = from.slice(0, limit);
  const last = items.at(-1);
  return { items, next_cursor: from.length > limit && last ? encodeCursor(last.id) : null };
}
