/** The hazard kinds, in the order their stages apply within a call. */
export const KINDS = [
  'lookalike',
  'outage',
  'spec_drift',
  'adhoc_rule',
  'ambiguous_doc',
  'invocation_error',
  'feature_limit',
  'transport_fault',
  'transient_failure',
  'latency',
  'stale_data',
  'conflict',
  'output_drift',
  'sponsored',
  'truncated',
  'notice',
  'redundant',
] as const;
export type KindName = (typeof KINDS)[number];

export const FAMILIES = {
  specification: ['adhoc_rule', 'spec_drift', 'ambiguous_doc', 'lookalike'],
  invocation: ['invocation_error'],
  execution: ['transient_failure', 'latency', 'transport_fault', 'feature_limit', 'outage'],
  output: ['output_drift', 'sponsored', 'notice', 'truncated', 'redundant', 'stale_data'],
  'cross-source': ['conflict'],
} as const satisfies Record<string, readonly KindName[]>;
export type Family = keyof typeof FAMILIES;

// Words from settings are looked up in Maps: an inherited name (`constructor`) is an unknown word.

/**
 * Words `HAZARDS` accepts besides kind names: the families, their aliases, and the five
 * user-facing groups. A group name that is also a kind (`sponsored`, `conflict`) means the group.
 */
export const GROUPS: ReadonlyMap<string, readonly KindName[]> = new Map<string, readonly KindName[]>([
  ...Object.entries(FAMILIES),
  ['failures', FAMILIES.execution],
  ['conflict', FAMILIES['cross-source']],
  ['adhoc', ['adhoc_rule']],
  ['drift', ['spec_drift', 'output_drift']],
  ['sponsored', ['sponsored', 'notice', 'redundant']],
  ['all', KINDS],
  ['none', []],
]);

/** WildAgtEval-style `ENABLE__<TYPE>__<FUNCTION>` types and the kind each stands for. */
export const ENABLE_ALIASES: ReadonlyMap<string, KindName> = new Map<string, KindName>([
  ['ADHOC', 'adhoc_rule'],
  ['FEATURE_LIMITATION_ERROR', 'feature_limit'],
  ['SYSTEM_FAILURE_ERROR', 'transient_failure'],
  ['INFORMATIONAL_NOTICE', 'notice'],
  ['PARTIALLY_IRRELEVANT_INFORMATION', 'redundant'],
]);

export const familyOf = (kind: KindName): Family =>
  (Object.keys(FAMILIES) as Family[]).find((family) => (FAMILIES[family] as readonly string[]).includes(kind))!;

export const isKind = (word: string): word is KindName => (KINDS as readonly string[]).includes(word);
