import { hash } from 'node:crypto';

/**
 * The draw for one call: a number in [0, 1) fixed by the seed, the session's scope (its task, or its id
 * when it has no seed of its own), the tool, the kind and the call's number. A call is hit when its draw is
 * below the probability, so the same seed and the same calls give the same faults, whatever other sessions
 * do, across restarts.
 */
export function draw(seed: string, scope: string, tool: string, kind: string, n: number): number {
  const digest = hash('sha256', `${seed}\u001f${scope}\u001f${tool}\u001f${kind}\u001f${n}`, 'buffer');
  return digest.readUInt32BE(0) / 4294967296;
}

/** A seed for the generator of one hit, from the same parts. */
export const hitSeed = (seed: string, scope: string, tool: string, kind: string, n: number) =>
  `${seed}\u001f${scope}\u001f${tool}\u001f${kind}\u001f${n}\u001fhit`;
