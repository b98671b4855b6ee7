import { defineKind, type ScenarioBase } from '../kind.js';
import { gatewayTimeout } from '../faults.js';

declare module '../kind.js' {
  interface ScenarioTypes<Db, Tool> {
    latency: LatencyScenario;
  }
}

export type LatencyScenario = ScenarioBase<'latency'>;

/**
 * The upstream is slower than the gateway's timeout: after the delay the gateway answers 504. A read
 * has nothing to show for it; a write may have committed before the gateway gave up (or not at all).
 */
export const latency = defineKind<LatencyScenario>({
  kind: 'latency',
  family: 'execution',
  scope: 'call',
  endsCall: true,
  retryable: true,
  sees: 'a 504 Gateway Timeout after HAZARD_LATENCY_MS; on a write, the outcome is unknown',
  recovery: 'retry a read; before retrying a write, read the state (or retry with the same idempotency_key)',
  needs: ['retry'],
  hint: () => 'The gateway timed out; a write may or may not have gone through.',
  generic: { kind: 'latency' },
  async before(call) {
    const write = call.context.tool.mutates;
    const committed = write && call.random.bool(0.5);
    call.record({ delay_ms: call.settings.latencyMs, outcome: 'gateway_timeout', ...(write ? { committed } : {}) });
    await call.sleep(call.settings.latencyMs);
    if (!committed) throw gatewayTimeout(call);
  },
  // A write the gateway gave up on while it ran: it commits, then the 504 is all the agent gets.
  after(call) {
    throw gatewayTimeout(call);
  },
});
