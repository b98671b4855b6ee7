/**
 * What a tool sees of one table of its domain's database: a keyed collection of records.
 * Records returned by `get` and `values` are frozen (shared between sessions); a tool that
 * changes a record asks for a private copy with `edit`, or writes a new one with `put`.
 * All writes of one call land together when the call succeeds, or not at all.
 */
export interface Table<T> {
  get(id: string): T | undefined;
  has(id: string): boolean;
  /** A mutable copy of the record, written back when the call succeeds. */
  edit(id: string): T | undefined;
  put(id: string, value: T): void;
  remove(id: string): void;
  values(): IterableIterator<T>;
  entries(): IterableIterator<[string, T]>;
  readonly size: number;
}

/** A domain database seen by a tool: one Table per record type. */
export type Tables<Records extends Record<string, unknown>> = {
  readonly [K in keyof Records]: Table<Records[K]>;
};
