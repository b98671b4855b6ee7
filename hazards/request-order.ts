import { isObject } from '../lib/object.js';

// A multi-target call's answer lists its targets in the order they were asked for, failed or not (a
// batch API's per-item results, a group command's per-device ones): a hazard that fails some targets
// keeps them in their place rather than after the others.

type Obj = Record<string, unknown>;
type Id = string | number;

const isId = (value: unknown): value is Id => typeof value === 'string' || typeof value === 'number';

/** The request's lists of target ids (two or more strings or numbers, no repeats). */
const targetLists = (requested: Obj): Id[][] =>
  Object.values(requested).filter(
    (value): value is Id[] => Array.isArray(value) && value.length >= 2 && value.every(isId) && new Set(value).size === value.length,
  );

/** The member of every row naming a distinct target of `targets`, if one does. */
function targetKey(rows: readonly Obj[], targets: readonly Id[]): string | undefined {
  return Object.keys(rows[0]!).find((key) => {
    const named = rows.map((row) => row[key]);
    return named.every((id) => targets.includes(id as Id)) && new Set(named).size === named.length;
  });
}

/** A list of rows in request order when its rows name the targets of one of the request's lists; else itself. */
function ordered(list: unknown, lists: readonly Id[][]): unknown {
  if (!Array.isArray(list) || list.length < 2 || !list.every(isObject)) return list;
  for (const targets of lists) {
    const key = targetKey(list, targets);
    if (key !== undefined) return list.toSorted((a, b) => targets.indexOf(a[key] as Id) - targets.indexOf(b[key] as Id));
  }
  return list;
}

/**
 * The answer with each per-target list (a list of the answer, or the answer itself, whose rows each name a
 * different target of a list in the request) in the order the request lists the targets.
 */
export function inRequestOrder(answer: unknown, requested: unknown): unknown {
  const lists = isObject(requested) ? targetLists(requested) : [];
  if (lists.length === 0) return answer;
  if (!isObject(answer)) return ordered(answer, lists);
  return Object.fromEntries(Object.entries(answer).map(([key, value]) => [key, ordered(value, lists)]));
}
