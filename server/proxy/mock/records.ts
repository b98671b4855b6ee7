import type { Parent } from './resources.js';
import { flatten, propertiesOf } from './schema.js';

type MockRecord = Record<string, unknown>;

/**
 * The number of a resource's next generated id: one past the highest its records hold (`12`, `ticket_12`), as a
 * database's row id is. It depends on the records alone, so a session read back from disk goes on alike.
 */
export function nextNumber(ids: Iterable<string>): number {
  let highest = 0;
  let count = 0;
  for (const id of ids) {
    count += 1;
    const number = Number(/(\d+)$/.exec(id)?.[1] ?? 0);
    if (number > highest && Number.isSafeInteger(number)) highest = number;
  }
  return Math.max(highest, count) + 1;
}

/** Whether a record belongs under the records the path names (`/tickets/{ticket_id}/comments`). */
export const underParents = (record: MockRecord, parents: readonly Parent[], params: MockRecord): boolean =>
  parents.every((parent) => String(record[parent.field]) === String(params[parent.param]));

/**
 * The query parameters a list answers by: those named like a member of its records (`?status=open`), with the
 * value sent. A record matches when its member equals the value (or, for a list member, holds it).
 */
export function filtersOf(params: MockRecord, queryNames: readonly string[], document: unknown, recordSchema: unknown): [string, unknown][] {
  const members = propertiesOf(flatten(document, recordSchema));
  return queryNames.filter((name) => Object.hasOwn(members, name) && params[name] !== undefined).map((name) => [name, params[name]]);
}

export function matches(record: MockRecord, filters: readonly [string, unknown][]): boolean {
  return filters.every(([name, wanted]) => {
    const value = record[name];
    const same = (one: unknown) => one === wanted || String(one) === String(wanted);
    return Array.isArray(value) ? value.some(same) : Array.isArray(wanted) ? wanted.some((one) => same(one) || one === value) : same(value);
  });
}

/**
 * The server's timestamps, as a real API sets them: on a create every `readOnly` date-time member of the record
 * takes the session's clock; on a change, those named for a change (`updated_at`, `modifiedAt`, `last_modified`).
 */
export function stamped(document: unknown, recordSchema: unknown, record: MockRecord, now: Date, created: boolean): MockRecord {
  const members = propertiesOf(flatten(document, recordSchema));
  let out = record;
  for (const [name, raw] of Object.entries(members)) {
    const member = flatten(document, raw);
    if (member['readOnly'] !== true || member['format'] !== 'date-time') continue;
    if (!created && !/updat|modif|chang/i.test(name)) continue;
    out = out === record ? { ...record } : out;
    out[name] = now.toISOString();
  }
  return out;
}
