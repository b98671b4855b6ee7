import { isObject } from '../lib/object.js';

// End states compared as what writes changed: per record, its value after the run. Extra reads change
// nothing; times written by the session clock are masked (they move with the number of calls); numbers
// are compared by value (100 == 100.0, float noise aside).

/** One record a run changed: its value after the run, or null when it was deleted. */
export interface ChangedRecord {
  domain: string;
  table: string;
  id: string;
  op: 'insert' | 'update' | 'delete';
  after: unknown;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;

/** A value as compared: clock times masked, numbers rounded to 12 significant digits, keys sorted. */
export function normalise(value: unknown): unknown {
  if (typeof value === 'string') return ISO_TIME.test(value) ? '<time>' : value;
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

const keyOf = (record: ChangedRecord) => `${record.domain}\u0000${record.table}\u0000${record.id}`;

/** How the run's changes differ from the expected ones (all lists empty: the same end state). */
export function compareStates(expected: readonly ChangedRecord[], actual: readonly ChangedRecord[]): StateMismatch {
  const want = new Map(expected.map((record) => [keyOf(record), record]));
  const got = new Map(actual.map((record) => [keyOf(record), record]));
  const mismatch: StateMismatch = { missing: [], unexpected: [], different: [] };
  for (const [key, record] of want) {
    const other = got.get(key);
    if (!other) mismatch.missing.push(record);
    else {
      const fields = differingPaths(normalise(record.after), normalise(other.after));
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
