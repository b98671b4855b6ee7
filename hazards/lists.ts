import { isObject } from '../lib/object.js';

// Where a list sits in an answer: a named member of an object, or the answer itself.

type Obj = Record<string, unknown>;

/** The list at `member` of the answer (or the answer itself when no member is named); null when absent. */
export function listIn(result: unknown, member: string | undefined): Obj[] | null {
  const list = member === undefined ? result : isObject(result) ? result[member] : undefined;
  return Array.isArray(list) ? (list as Obj[]) : null;
}

/** The answer with its list replaced, and each count member raised by `added`. */
export function withList(result: unknown, member: string | undefined, items: Obj[], counts: readonly string[] = [], added = 0): unknown {
  if (member === undefined) return items;
  const out: Obj = { ...(result as Obj), [member]: items };
  for (const count of counts) if (typeof out[count] === 'number') out[count] = (out[count] as number) + added;
  return out;
}
