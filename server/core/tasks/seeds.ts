import { hash32 } from '../../../lib/random.js';

// A task's seed names its instance. Seed 0 is the embedded data (what the README and examples show); the test
// split is seeds 1–9,999 (evaluations and the validity matrix use these), the train split every seed from
// 10,000 on (training draws from it). A model trained on train seeds never saw a test instance.

export const MAX_SEED = 2_147_483_647;
export const SPLITS = {
  demo: { first: 0, last: 0 },
  test: { first: 1, last: 9_999 },
  train: { first: 10_000, last: MAX_SEED },
} as const;

/** The seed of a task session created without one: drawn from the train split by its id, and reported. */
export function drawnSeed(sessionId: string): number {
  const { first, last } = SPLITS.train;
  return first + (hash32('instance', sessionId) % (last - first + 1));
}

/** A seed as a client may send it (a whole number, or its digits), or undefined when it is not one. */
export function seedOf(value: string | number): number | undefined {
  const seed = typeof value === 'number' ? value : /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN;
  return Number.isInteger(seed) && seed >= 0 && seed <= MAX_SEED ? seed : undefined;
}
