import { defineKind, type ScenarioBase } from '../kind.js';
import { gatewayTimeout, hinted } from '../faults.js';

export type LatencyScenario = ScenarioBase<'latency'>;

/** A slow answer, or a 504 from the gateway after the delay (the call did not run). */
export const latency = defineKind<LatencyScenario>({
  kind: 'latency',
  family: 'execution',
  scope: 'call',
  retryable: true,
  sees: 'an answer that takes HAZARD_LATENCY_MS longer, or a 504 Gateway Timeout after that delay',
  recovery: 'wait for the answer, or retry after a 504; nothing was executed on a 504',
  hint: () => 'The service was slow; a 504 means the call did not run and can be retried.',
  generic: { kind: 'latency' },
  async before(call) {
    const timeout = call.random.bool(0.4);
    call.record({ delay_ms: call.settings.latencyMs, outcome: timeout ? 'gateway_timeout' : 'slow' });
    await call.sleep(call.settings.latencyMs);
    if (timeout) throw gatewayTimeout(call);
  },
  // In hints mode a slow answer carries the hint too (a 504 carries it in its body). Decided by
  // this call's own event, so the after-stage can never disagree with what the before-stage did.
  after(call, result) {
    const slowed = call.context.events.some((event) => event.kind === 'latency' && event['outcome'] === 'slow');
    return slowed ? hinted(call, result) : result;
  },
});
