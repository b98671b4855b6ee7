import { FAMILY_NAMES, type Family, type KindName } from './kind.js';
import { hazardKinds } from './kinds/index.js';

export type { Family, KindName } from './kind.js';

/** The hazard kinds, in the order their stages apply within a call. */
export const KINDS: readonly KindName[] = hazardKinds.map((kind) => kind.kind as KindName);

/** The kinds of each family, as the kinds' files declare them. */
export const FAMILIES: Readonly<Record<Family, readonly KindName[]>> = Object.fromEntries(
  FAMILY_NAMES.map((family) => [family, KINDS.filter((kind) => hazardKinds.find((k) => k.kind === kind)!.family === family)]),
) as unknown as Record<Family, readonly KindName[]>;

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

const FAMILY_OF: ReadonlyMap<string, Family> = new Map(hazardKinds.map((kind) => [kind.kind, kind.family]));

export const familyOf = (kind: KindName): Family => FAMILY_OF.get(kind)!;

export const isKind = (word: string): word is KindName => FAMILY_OF.has(word);
