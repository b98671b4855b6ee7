import { defineErrors } from '../lib/error-catalog.js';

/**
 * The codes hazards answer with in the API's own voice (problem JSON), whatever the tool: one group, for every
 * tool a hazard may strike. The execution hazards (transient_failure, latency, unknown_outcome, transport_fault)
 * answer in other servers' styles, without a code of ours.
 */
export const HAZARD_ERRORS = defineErrors({
  invalid_input: {
    status: 400,
    meaning: "spec_drift: a parameter was renamed; the session's listing shows its new name: repeat the call with it.",
  },
  api_version_required: { status: 400, meaning: 'invocation_error: the call must carry the argument api_version the detail names: repeat it with it.' },
  feature_limited: {
    status: [403, 422],
    meaning: 'feature_limit: the plan, a quota or the coverage refuses this use (the detail says why): take the workaround it implies.',
  },
  invalid_format: { status: 422, meaning: "adhoc_rule: a parameter breaks a format convention the tool's description states: reformat it and repeat." },
  idempotency_key_required: { status: 428, meaning: 'invocation_error: the write must carry an idempotency_key: repeat it with a new unique key.' },
  service_unavailable: {
    status: 503,
    meaning: 'outage: the tool is down for an incident (Retry-After is an hour): use a fallback tool if there is one, else tell the user.',
  },
});
