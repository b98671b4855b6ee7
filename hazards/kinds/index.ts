import type { HazardKind, ScenarioBase } from '../kind.js';
import { adhocRule, type AdhocRuleScenario } from './adhoc_rule.js';
import { ambiguousDoc, type AmbiguousDocScenario } from './ambiguous_doc.js';
import { conflict, type ConflictScenario } from './conflict.js';
import { featureLimit, type FeatureLimitScenario } from './feature_limit.js';
import { invocationError, type InvocationErrorScenario } from './invocation_error.js';
import { latency, type LatencyScenario } from './latency.js';
import { lookalike, type LookalikeScenario } from './lookalike.js';
import { notice, type NoticeScenario } from './notice.js';
import { outage, type OutageScenario } from './outage.js';
import { outputDrift, type OutputDriftScenario } from './output_drift.js';
import { redundant, type RedundantScenario } from './redundant.js';
import { specDrift, type SpecDriftScenario } from './spec_drift.js';
import { sponsored, type SponsoredScenario } from './sponsored.js';
import { staleData, type StaleDataScenario } from './stale_data.js';
import { transientFailure, type TransientFailureScenario } from './transient_failure.js';
import { transportFault, type TransportFaultScenario } from './transport_fault.js';
import { truncated, type TruncatedScenario } from './truncated.js';

/** Every kind of hazard; one file each. */
export const hazardKinds = [
  adhocRule,
  specDrift,
  ambiguousDoc,
  lookalike,
  invocationError,
  transientFailure,
  latency,
  transportFault,
  featureLimit,
  outage,
  outputDrift,
  sponsored,
  notice,
  truncated,
  redundant,
  staleData,
  conflict,
] as unknown as readonly HazardKind<ScenarioBase>[];

/** A scenario of any kind, as a domain's hazards.ts declares it. */
export type Scenario =
  | AdhocRuleScenario
  | SpecDriftScenario
  | AmbiguousDocScenario
  | LookalikeScenario
  | InvocationErrorScenario
  | TransientFailureScenario
  | LatencyScenario
  | TransportFaultScenario
  | FeatureLimitScenario
  | OutageScenario
  | OutputDriftScenario
  | SponsoredScenario
  | NoticeScenario
  | TruncatedScenario
  | RedundantScenario
  | StaleDataScenario
  | ConflictScenario;
