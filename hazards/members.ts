import type { Random } from '../lib/random.js';

// How a hazard puts members into an answer or a row without leaving a tell of where they came from: a
// member the answer already has keeps its place and takes the new value; one it lacks goes where the
// seed puts it, not always first or last; a record shaped as the answer's rows lists its members in
// their order.

type Obj = Record<string, unknown>;

/**
 * `target` with `members` set: one it has keeps its place with the new value; the others are added
 * together, at a seeded place among its members when `random` is given (anywhere from first to last),
 * else after them.
 */
export function withMembers(target: Obj, members: Obj, random?: Random): Obj {
  const entries = Object.entries(target);
  const added: [string, unknown][] = [];
  for (const [key, value] of Object.entries(members)) {
    const at = entries.findIndex(([name]) => name === key);
    if (at >= 0) entries[at] = [key, value];
    else added.push([key, value]);
  }
  if (added.length > 0) entries.splice(random ? random.int(0, entries.length) : entries.length, 0, ...added);
  return Object.fromEntries(entries);
}

/** `record` with the members it shares with `template` in the template's order, then its own others. */
export function inOrderOf(record: Obj, template: Obj): Obj {
  const shared = Object.keys(template).filter((key) => Object.hasOwn(record, key));
  const others = Object.keys(record).filter((key) => !Object.hasOwn(template, key));
  return Object.fromEntries([...shared, ...others].map((key) => [key, record[key]]));
}
