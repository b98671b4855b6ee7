import { defineKind, type ScenarioBase } from '../kind.js';
import { serverError } from '../faults.js';

declare module '../kind.js' {
  interface ScenarioTypes<Db, Tool> {
    transient_failure: TransientFailureScenario;
  }
}

export type TransientFailureScenario = ScenarioBase<'transient_failure'>;

/** A 5xx with a cryptic body, or a 429 with Retry-After; the same call later succeeds. Nothing runs. */
export const transientFailure = defineKind<TransientFailureScenario>({
  kind: 'transient_failure',
  family: 'execution',
  scope: 'call',
  endsCall: true,
  retryable: true,
  sees: 'HTTP 500/502/503 with a cryptic body and a request id, or 429 with Retry-After',
  recovery: 'retry the same call (after Retry-After when given); nothing was executed',
  needs: ['retry'],
  hint: () => 'The server failed transiently and did not run the call; the same call can be retried.',
  generic: { kind: 'transient_failure' },
  before(call) {
    const fault = serverError(call);
    call.record({ status: fault.fault.type === 'http' ? fault.fault.status : 0, ...(call.context.tool.mutates ? { committed: false } : {}) });
    return fault;
  },
});
