// Named sets of hazard kinds for runs of foreign tasks (tau2-bench's), whose scripted oracle replays the
// gold actions with generic habits only: retry, an idempotency key on writes, a renamed parameter, an
// argument an error names. Only kinds that leave that oracle at 100 % are here (see README). `content` bites
// only an agent that reads the answers (a model): a replay of fixed gold arguments passes through it.

export const PROFILES: Readonly<Record<string, readonly string[]>> = {
  network: ['transient_failure', 'transport_fault', 'latency'],
  writes: ['unknown_outcome'],
  contract: ['spec_drift', 'invocation_error'],
  content: [
    'output_drift',
    'redundant',
    'truncated',
    'stale_data',
    'eventual_consistency',
    'sponsored',
    'injection',
    'notice',
    'lookalike',
    'conflict',
    'ambiguous_doc',
  ],
};

/** Every kind of a profile: the kinds a generic oracle recovers from. */
export const GENERIC_KINDS: readonly string[] = [...new Set(Object.values(PROFILES).flat())];

/** The kinds of a profile name (`all`: every generic kind) or of a comma list of kinds; throws on an unknown word. */
export function profileKinds(profile: string): string[] {
  if (profile === 'all') return [...GENERIC_KINDS];
  if (Object.hasOwn(PROFILES, profile)) return [...PROFILES[profile]!];
  const kinds = profile.split(',').map((word) => word.trim());
  const unknown = kinds.find((kind) => !GENERIC_KINDS.includes(kind));
  if (unknown !== undefined)
    throw new Error(
      `unknown profile or kind ${JSON.stringify(unknown)}: the profiles are ${[...Object.keys(PROFILES), 'all'].join(', ')}; the ` +
        `kinds ${GENERIC_KINDS.join(', ')}`,
    );
  return [...new Set(kinds)];
}
