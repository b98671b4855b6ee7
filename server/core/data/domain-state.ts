import { cloneJson } from '../../../lib/clone.js';
import type { DatabaseFile } from '../../../domains/domain.js';
import type { DatabaseTables } from './base.js';
import { type Change, DELETED, OverlayTable, type Replaced, type Slot } from './overlay.js';
import { isObject } from '../../../lib/object.js';

/** One difference between a session's database and the shared base it started from. */
export interface RecordDiff {
  table: string;
  id: string;
  op: 'insert' | 'update' | 'delete';
  /** Dotted paths of the fields that differ (for updates). */
  fields?: string[];
  before: unknown;
  after: unknown;
}

/**
 * A session's view of one domain database: the shared base plus this session's committed
 * changes. Tools run inside `transact`, which commits all their writes or none.
 */
export class DomainState {
  private readonly overlays: Map<string, OverlayTable<unknown>>;
  /** What tools receive: one table view per table name. */
  readonly tables: Record<string, OverlayTable<unknown>>;

  constructor(readonly base: DatabaseTables) {
    this.overlays = new Map();
    for (const [name, table] of base.tables) this.overlays.set(name, new OverlayTable(name, table, new Map()));
    this.tables = Object.fromEntries(this.overlays);
  }

  /** Runs a read: nothing to commit, and a write attempt is discarded. */
  read<R>(work: (tables: Record<string, OverlayTable<unknown>>) => R): R {
    try {
      return work(this.tables);
    } finally {
      for (const table of this.overlays.values()) if (table.pending.size > 0) table.rollback();
    }
  }

  /**
   * Runs a write: all its changes are committed, or none. `revert` takes the committed changes back
   * (a write whose log record could not be written); it is right only while no later write built on them.
   */
  transact<R>(work: (tables: Record<string, OverlayTable<unknown>>) => R): { result: R; changes: Change[]; revert: () => void } {
    try {
      const result = work(this.tables);
      const changes: Change[] = [];
      const replaced: Replaced[] = [];
      for (const table of this.overlays.values()) table.commit(changes, replaced);
      return { result, changes, revert: () => revert(replaced) };
    } catch (error) {
      for (const table of this.overlays.values()) table.rollback();
      throw error;
    }
  }

  /** Replays changes recorded earlier (persistence). */
  apply(changes: readonly Change[]): void {
    this.transact((tables) => {
      for (const { table, id, value } of changes) {
        const view = tables[table];
        if (!view) continue;
        if (value === null) view.remove(id);
        else view.put(id, cloneJson(value));
      }
    });
  }

  reset(): void {
    for (const table of this.overlays.values()) table.committed.clear();
  }

  get changed(): boolean {
    for (const table of this.overlays.values()) if (table.committed.size > 0) return true;
    return false;
  }

  /** The committed changes as plain data, for snapshots. */
  changesSnapshot(): Change[] {
    const changes: Change[] = [];
    for (const [name, table] of this.overlays) {
      for (const [id, slot] of table.committed) changes.push({ table: name, id, value: slot === DELETED ? null : slot });
    }
    return changes;
  }

  /** The whole database as this session sees it, in the file layout. */
  materialize(): DatabaseFile {
    const file: DatabaseFile = {};
    for (const [name, table] of this.overlays) file[name] = Object.fromEntries(table.entries());
    return file;
  }

  diff(): RecordDiff[] {
    const diffs: RecordDiff[] = [];
    for (const [name, table] of this.overlays) {
      const base = this.base.tables.get(name)!;
      for (const [id, slot] of table.committed) {
        const before = base.get(id);
        const after: Slot<unknown> = slot;
        if (after === DELETED) diffs.push({ table: name, id, op: 'delete', before, after: null });
        else if (before === undefined) diffs.push({ table: name, id, op: 'insert', before: null, after });
        else {
          const fields = changedPaths(before, after);
          if (fields.length > 0) diffs.push({ table: name, id, op: 'update', fields, before, after });
        }
      }
    }
    return diffs;
  }
}

function revert(replaced: readonly Replaced[]): void {
  for (let i = replaced.length - 1; i >= 0; i--) replaced[i]!.table.restore(replaced[i]!.id, replaced[i]!.slot);
}

/** Dotted paths where two JSON values differ; arrays compare as wholes below their path. */
export function changedPaths(before: unknown, after: unknown, prefix = ''): string[] {
  if (Object.is(before, after)) return [];
  if (isObject(before) && isObject(after)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    return [...keys].flatMap((key) => changedPaths(before[key], after[key], prefix ? `${prefix}.${key}` : key));
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  return [prefix || '(root)'];
}
