import { defineKind, type ScenarioBase } from '../kind.js';
import { HazardFault } from '../fault.js';

declare module '../kind.js' {
  interface ScenarioTypes<Db, Tool> {
    transport_fault: TransportFaultScenario;
  }
}

export type TransportFaultScenario = ScenarioBase<'transport_fault'>;

const MODES = ['reset', 'empty', 'truncated', 'malformed'] as const;

/**
 * The connection fails: reset, closed without an answer, a body cut short, or a 200 whose JSON is
 * broken. Writes fail before they run, so a retry never applies them twice; reads fail on their
 * real answer.
 */
export const transportFault = defineKind<TransportFaultScenario>({
  kind: 'transport_fault',
  family: 'execution',
  scope: 'call',
  endsCall: true,
  retryable: true,
  sees: 'a connection reset, an empty reply, a truncated body, or malformed JSON with status 200',
  recovery: 'retry the same call; a write cut off before it was sent was not applied',
  needs: ['retry'],
  hint: () => 'The connection failed; the call can be retried.',
  generic: { kind: 'transport_fault' },
  before(call) {
    if (!call.context.tool.mutates) return;
    const mode = call.random.pick(['reset', 'empty'] as const);
    call.record({ mode, executed: false, committed: false });
    return new HazardFault({ type: 'transport', mode });
  },
  after(call, result) {
    if (call.context.tool.mutates) return result;
    const mode = call.random.pick(MODES);
    const keep = 0.3 + call.random.next() * 0.5;
    call.record({ mode, executed: true });
    if (mode === 'reset' || mode === 'empty') throw new HazardFault({ type: 'transport', mode });
    throw new HazardFault({ type: 'transport', mode, answer: result, keep, ...(call.hints ? { headers: { 'x-hint': call.hint } } : {}) });
  },
});
