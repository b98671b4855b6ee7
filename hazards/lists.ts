import { isObject } from '../lib/object.js';

// Where a list sits in an answer: a named member of an object, or the answer itself.

type Obj = Record<string, unknown>;

/**
 * Where a scenario's list sits: a member's name, or for answers whose shape is known only when they
 * arrive (a proxied upstream's), a function finding the member in the answer (undefined: the answer itself).
 */
export type ListAt = string | ((result: unknown) => string | undefined);

/** The member a scenario's list sits at in this answer. */
export const listMember = (result: unknown, at: ListAt | undefined): string | undefined => (typeof at === 'function' ? at(result) : at);

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
