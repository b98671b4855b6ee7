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
