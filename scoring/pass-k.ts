// pass^k (tau-bench): the chance that k runs of a task, drawn from its n runs, all succeed —
// C(c, k) / C(n, k) for c successes — averaged over tasks. It falls as k grows unless every run succeeds.

function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return result;
}

/** pass^k of one task's runs, for k = 1 … n. */
export function passHatK(successes: readonly boolean[]): { k: number; pass: number }[] {
  const n = successes.length;
  const c = successes.filter(Boolean).length;
  return Array.from({ length: n }, (_, i) => ({ k: i + 1, pass: choose(c, i + 1) / choose(n, i + 1) }));
}
