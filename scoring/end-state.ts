import { isObject } from '../lib/object.js';

// End states compared as what writes changed: per record, its value after the run. Extra reads change
// nothing; values the session clock wrote (a cancellation's time) are masked, and only those: the paths
// that differ between two reference runs on clocks that tick differently. Numbers are compared by value
// (100 == 100.0, float noise aside).

/** One record a run changed: its value after the run, or null when it was deleted. */
export interface ChangedRecord {
  domain: string;
  table: string;
  id: string;
  op: 'insert' | 'update' | 'delete';
  after: unknown;
}

/** A value as compared: numbers rounded to 12 significant digits, keys sorted. */
export function normalise(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? Number(value.toPrecision(12)) : value;
  if (Array.isArray(value)) return value.map(normalise);
  if (isObject(value)) {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) sorted[key] = normalise(value[key]);
    return sorted;
  }
  return value;
}

export interface StateMismatch {
  /** Changes the task expects that the run did not make. */
  missing: ChangedRecord[];
  /** Changes the run made that the task does not expect. */
  unexpected: ChangedRecord[];
  /** Records both changed, to different values: the dotted paths that differ. */
  different: { domain: string; table: string; id: string; fields: string[] }[];
}

/** Per record (`recordKey`), the dotted paths of the values the session clock wrote. */
export type ClockPaths = ReadonlyMap<string, readonly string[]>;

export const recordKey = (record: Pick<ChangedRecord, 'domain' | 'table' | 'id'>) => `${record.domain}\u0000${record.table}\u0000${record.id}`;
const keyOf = recordKey;

/** The paths where the same records of two reference runs differ: what their clocks wrote. */
export function clockPathsOf(first: readonly ChangedRecord[], second: readonly ChangedRecord[]): ClockPaths {
  const other = new Map(second.map((record) => [keyOf(record), record]));
  const paths = new Map<string, string[]>();
  for (const record of first) {
    const twin = other.get(keyOf(record));
    const differing = twin ? differingPaths(normalise(record.after), normalise(twin.after)) : [];
    if (differing.length > 0) paths.set(keyOf(record), differing);
  }
  return paths;
}

const CLOCK = '<clock>';

/** A value with the values at `paths` replaced by a mark (a path that is not there is left alone). */
export function masked(value: unknown, paths: readonly string[]): unknown {
  if (paths.length === 0) return value;
  if (paths.includes('')) return CLOCK;
  if (!isObject(value) && !Array.isArray(value)) return value;
  const children = new Map<string, string[]>();
  for (const path of paths) {
    const dot = path.indexOf('.');
    const head = dot < 0 ? path : path.slice(0, dot);
    children.set(head, [...(children.get(head) ?? []), dot < 0 ? '' : path.slice(dot + 1)]);
  }
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [...value] : { ...value };
  for (const [head, rest] of children) {
    if (Object.hasOwn(copy, head)) (copy as Record<string, unknown>)[head] = masked((copy as Record<string, unknown>)[head], rest);
  }
  return copy;
}

/** How the run's changes differ from the expected ones (all lists empty: the same end state), the values the clock wrote aside. */
export function compareStates(expected: readonly ChangedRecord[], actual: readonly ChangedRecord[], clock: ClockPaths = new Map()): StateMismatch {
  const want = new Map(expected.map((record) => [keyOf(record), record]));
  const got = new Map(actual.map((record) => [keyOf(record), record]));
  const mismatch: StateMismatch = { missing: [], unexpected: [], different: [] };
  for (const [key, record] of want) {
    const other = got.get(key);
    if (!other) mismatch.missing.push(record);
    else {
      const paths = clock.get(key) ?? [];
      const fields = differingPaths(normalise(masked(record.after, paths)), normalise(masked(other.after, paths)));
      if (fields.length > 0 || record.op !== other.op) mismatch.different.push({ domain: record.domain, table: record.table, id: record.id, fields });
    }
  }
  for (const [key, record] of got) if (!want.has(key)) mismatch.unexpected.push(record);
  return mismatch;
}

export const sameState = (mismatch: StateMismatch) => mismatch.missing.length + mismatch.unexpected.length + mismatch.different.length === 0;

/** Dotted paths where two normalised values differ ('' for the whole value). */
export function differingPaths(a: unknown, b: unknown, prefix = ''): string[] {
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((key) => differingPaths(a[key], b[key], prefix ? `${prefix}.${key}` : key));
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    return a.flatMap((item, i) => differingPaths(item, b[i], prefix ? `${prefix}.${i}` : String(i)));
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [prefix];
}
