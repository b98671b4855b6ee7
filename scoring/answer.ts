import type { AnswerRule } from '../lib/answer-fields.js';
import { isObject } from '../lib/object.js';
import { own } from '../lib/own.js';
import { foldForMatch } from '../lib/text.js';
import type { Fact } from './task.js';

// Facts in a final answer, matched without an LLM: words and phrases case- and space-insensitively,
// numbers by value wherever they are written (100 == 100.0 == $100.00 == 1,00 never: thousands only).

const NUMBER = /-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?/g;

const squeeze = (text: string) => text.toLowerCase().replace(/\s+/g, ' ');

/** The numbers written in a text, by value. */
export function numbersIn(text: string): number[] {
  return [...text.matchAll(NUMBER)].map((match) => Number(match[0].replaceAll(',', '')));
}

/** Two numbers are the same when they agree to 9 significant digits (float noise aside). */
export const sameNumber = (a: number, b: number) => a === b || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/** Whether the text states the fact. A string that is a number is matched as a number. */
export function states(text: string, fact: Fact): boolean {
  if (typeof fact === 'number' || /^-?\d+(\.\d+)?$/.test(fact)) {
    const value = Number(fact);
    return numbersIn(text).some((found) => sameNumber(found, value));
  }
  return squeeze(text).includes(squeeze(fact));
}

export interface FactCheck {
  missing: Fact[];
  stated_but_excluded: Fact[];
}

export function checkFacts(text: string, contains: readonly Fact[], excludes: readonly Fact[]): FactCheck {
  return {
    missing: contains.filter((fact) => !states(text, fact)),
    stated_but_excluded: excludes.filter((fact) => states(text, fact)),
  };
}

// ---- typed answers

/** One way a typed answer differs from the expected one: the dotted path, what was expected and what was given. */
export interface AnswerDifference {
  path: string;
  expected: unknown;
  got: unknown;
}

const folded = (text: string) => foldForMatch(text).replace(/\s+/g, ' ');

const canonical = (value: unknown): string => JSON.stringify(value, (_key, v) => (isObject(v) ? Object.fromEntries(Object.entries(v).sort()) : v));

/** How `got` differs from `expected` under `rule` ([]: the same answer). */
export function compareAnswer(rule: AnswerRule, expected: unknown, got: unknown, path = ''): AnswerDifference[] {
  const differs = (): AnswerDifference[] => [{ path: path || '(answer)', expected, got }];
  switch (rule.type) {
    case 'exact':
      return canonical(expected) === canonical(got) ? [] : differs();
    case 'text':
      return typeof expected === 'string' && typeof got === 'string' && folded(expected) === folded(got) ? [] : differs();
    case 'number':
      return typeof expected === 'number' && typeof got === 'number' && Math.abs(expected - got) <= rule.tolerance + 1e-9 * Math.max(1, Math.abs(expected))
        ? []
        : differs();
    case 'nullable':
      if (expected === null || expected === undefined) return got === null || got === undefined ? [] : differs();
      return compareAnswer(rule.inner, expected, got, path);
    case 'list':
      if (!Array.isArray(expected) || !Array.isArray(got) || expected.length !== got.length) return differs();
      return expected.flatMap((item, i) => compareAnswer(rule.item, item, got[i], path ? `${path}.${i}` : String(i)));
    case 'set':
      return Array.isArray(expected) && Array.isArray(got) && sameItems(rule.item, expected, got) ? [] : differs();
    case 'object': {
      if (!isObject(expected) || !isObject(got)) return differs();
      const at = (name: string) => (path ? `${path}.${name}` : name);
      const fields = Object.entries(rule.fields).flatMap(([name, inner]) => compareAnswer(inner, own(expected, name), own(got, name), at(name)));
      const extra = Object.keys(got)
        .filter((name) => !Object.hasOwn(rule.fields, name))
        .map((name) => ({ path: at(name), expected: undefined, got: got[name] }));
      return [...fields, ...extra];
    }
  }
}

/** Whether two lists hold the same items, each matched once, in any order. */
function sameItems(rule: AnswerRule, expected: readonly unknown[], got: readonly unknown[]): boolean {
  if (expected.length !== got.length) return false;
  const unmatched = [...got];
  for (const item of expected) {
    const index = unmatched.findIndex((candidate) => compareAnswer(rule, item, candidate).length === 0);
    if (index < 0) return false;
    unmatched.splice(index, 1);
  }
  return true;
}
