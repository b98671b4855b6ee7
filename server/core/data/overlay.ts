import { cloneJson } from '../../../lib/clone.js';
import { deepFreeze } from '../../../lib/freeze.js';
import { jsonText } from '../../../lib/json-text.js';
import type { Table } from '../../../lib/table.js';

/** Marks a record deleted in an overlay. */
export const DELETED: unique symbol = Symbol('deleted');
export type Slot<T> = T | typeof DELETED;

/** The shared, frozen records of one table, as loaded at startup. */
export type BaseTable = ReadonlyMap<string, unknown>;

/** One change a committed call made: the record's new value, or null when deleted. */
export interface Change {
  readonly table: string;
  readonly id: string;
  readonly value: unknown;
}

/**
 * Copy-on-write view of one table: reads fall through the call's pending writes, then the
 * session's committed changes, then the shared base. Creating one copies nothing.
 */
export class OverlayTable<T> implements Table<T> {
  /** Writes of the call in progress. */
  readonly pending = new Map<string, Slot<T>>();

  constructor(
    readonly name: string,
    private readonly base: BaseTable,
    /** Changes committed in this session. */
    readonly committed: Map<string, Slot<T>>,
  ) {}

  get(id: string): T | undefined {
    const slot = this.pending.get(id) ?? this.committed.get(id) ?? (this.base.get(id) as T | undefined);
    return slot === DELETED ? undefined : slot;
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  edit(id: string): T | undefined {
    const pending = this.pending.get(id);
    if (pending !== undefined) return pending === DELETED ? undefined : pending;
    const current = this.get(id);
    if (current === undefined) return undefined;
    const copy = cloneJson(current);
    this.pending.set(id, copy);
    return copy;
  }

  put(id: string, value: T): void {
    this.pending.set(id, value);
  }

  remove(id: string): void {
    if (this.has(id)) this.pending.set(id, DELETED);
  }

  *entries(): IterableIterator<[string, T]> {
    for (const id of this.base.keys()) {
      const value = this.get(id);
      if (value !== undefined) yield [id, value];
    }
    for (const id of this.committed.keys()) {
      if (this.base.has(id)) continue;
      const value = this.get(id);
      if (value !== undefined) yield [id, value];
    }
    for (const [id, slot] of this.pending) {
      if (this.base.has(id) || this.committed.has(id) || slot === DELETED) continue;
      yield [id, slot];
    }
  }

  *values(): IterableIterator<T> {
    for (const [, value] of this.entries()) yield value;
  }

  get size(): number {
    let count = 0;
    for (const _ of this.entries()) count++;
    return count;
  }

  /**
   * Moves the call's writes into the session (frozen) and reports them, with what they replaced. A write that leaves
   * its record byte-identical (a record edited and put back as it was) is no change: it is neither kept nor reported.
   */
  commit(changes: Change[], replaced: Replaced[]): void {
    for (const [id, slot] of this.pending) {
      if (slot !== DELETED && this.unchanged(id, slot)) continue;
      replaced.push({ table: this, id, slot: this.committed.get(id) });
      if (slot === DELETED && !this.base.has(id)) this.committed.delete(id);
      else this.committed.set(id, slot === DELETED ? DELETED : deepFreeze(slot));
      changes.push({ table: this.name, id, value: slot === DELETED ? null : slot });
    }
    this.pending.clear();
  }

  /** True when `value` has the JSON text of the record as the session sees it before this call. */
  private unchanged(id: string, value: T): boolean {
    const current = this.committed.get(id) ?? (this.base.get(id) as T | undefined);
    if (current === undefined || current === DELETED) return false;
    return current === value || jsonText(current) === JSON.stringify(value);
  }

  rollback(): void {
    this.pending.clear();
  }

  /** Puts back a committed slot as it was before a commit (undefined: the base's record). */
  restore(id: string, slot: Slot<T> | undefined): void {
    if (slot === undefined) this.committed.delete(id);
    else this.committed.set(id, slot);
  }
}

/** A committed slot as it was before a commit replaced it (undefined: none, the base's record showed). */
export interface Replaced {
  readonly table: OverlayTable<unknown>;
  readonly id: string;
  readonly slot: Slot<unknown> | undefined;
}
