import type { HazardKind, KindName, ScenarioBase } from '../kind.js';
import { adhocRule } from './adhoc_rule.js';
import { ambiguousDoc } from './ambiguous_doc.js';
import { conflict } from './conflict.js';
import { eventualConsistency } from './eventual_consistency.js';
import { featureLimit } from './feature_limit.js';
import { injection } from './injection.js';
import { invocationError } from './invocation_error.js';
import { latency } from './latency.js';
import { lookalike } from './lookalike.js';
import { notice } from './notice.js';
import { outage } from './outage.js';
import { outputDrift } from './output_drift.js';
import { partialFailure } from './partial_failure.js';
import { redundant } from './redundant.js';
import { specDrift } from './spec_drift.js';
import { sponsored } from './sponsored.js';
import { staleData } from './stale_data.js';
import { transientFailure } from './transient_failure.js';
import { transportFault } from './transport_fault.js';
import { truncated } from './truncated.js';
import { unknownOutcome } from './unknown_outcome.js';

/**
 * Every kind of hazard (one file each), in the order their stages apply within a call: first what
 * decides whether the call runs at all, then what reshapes its answer.
 */
const kinds = [
  lookalike,
  outage,
  specDrift,
  adhocRule,
  ambiguousDoc,
  invocationError,
  featureLimit,
  partialFailure,
  transportFault,
  transientFailure,
  latency,
  unknownOutcome,
  eventualConsistency,
  staleData,
  conflict,
  outputDrift,
  sponsored,
  truncated,
  injection,
  notice,
  redundant,
] as const;

// A kind file declares its scenario type (ScenarioTypes) and its object; forgetting the line above fails here.
type Listed = (typeof kinds)[number]['kind'];
const everyKindListed: [Exclude<KindName, Listed>] extends [never] ? true : Exclude<KindName, Listed> = true;
void everyKindListed;

/**
 * The kinds as listed; exported so that a declaration file of this module brings every kind's scenario type.
 * @public
 */
export type ListedKinds = typeof kinds;

export const hazardKinds = kinds as unknown as readonly HazardKind<ScenarioBase<KindName>>[];
