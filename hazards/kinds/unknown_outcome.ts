import { defineKind, type ScenarioBase } from '../kind.js';
import { badGateway, gatewayTimeout } from '../faults.js';
import { HazardFault } from '../fault.js';

declare module '../kind.js' {
  interface ScenarioTypes<Db, Tool> {
    unknown_outcome: UnknownOutcomeScenario;
  }
}

export type UnknownOutcomeScenario = ScenarioBase<'unknown_outcome'>;

/**
 * A write commits, then its answer is lost on the way back: the gateway times out (504), the upstream
 * connection drops (502), or the connection is reset. A blind retry writes twice.
 */
export const unknownOutcome = defineKind<UnknownOutcomeScenario>({
  kind: 'unknown_outcome',
  family: 'execution',
  scope: 'call',
  endsCall: true,
  retryable: true,
  writesOnly: true,
  sees: 'a 504 or 502 from a gateway, or a reset connection, on a write that did go through',
  recovery: 'retry with the same idempotency_key (the first result is replayed), or read the state before retrying',
  needs: ['idempotency_key', 'read_before_retry'],
  hint: () => 'The write may have gone through before the answer was lost: check before writing again.',
  generic: { kind: 'unknown_outcome' },
  after(call) {
    const mode = call.random.pick(['gateway_timeout', 'bad_gateway', 'reset'] as const);
    call.record({ mode, committed: true });
    if (mode === 'gateway_timeout') throw gatewayTimeout(call);
    if (mode === 'reset') throw new HazardFault({ type: 'transport', mode: 'reset' });
    throw badGateway(call);
  },
});
