import { defineKind, type ResultHook, type ScenarioBase } from '../kind.js';
import { hinted } from '../faults.js';
import { announceDrift, driftNote } from '../versions.js';

declare module '../kind.js' {
  interface ScenarioTypes<Db, Tool> {
    output_drift: OutputDriftScenario<Db>;
  }
}

export interface OutputDriftScenario<Db = unknown> extends ScenarioBase<'output_drift'> {
  /** What changed, for the journal: "status → state, amounts in cents". */
  change: string;
  /** The same information in the new shape. */
  reshape(hook: ResultHook<Db>): unknown;
}

/** From the drift point (onset, default 2) the tool answers the same information in a new shape. */
export const outputDrift = defineKind<OutputDriftScenario>({
  kind: 'output_drift',
  family: 'output',
  scope: 'session',
  onset: 2,
  retryable: false,
  sees: 'the same information in a new shape: a renamed field, an envelope, amounts in cents, other units with a unit field',
  recovery: 'read the new shape (field names, units) instead of assuming the old one; verify values',
  needs: ['documented_shape'],
  hint: (s) => `The response format changed (${s.change}).`,
  after(call, result) {
    call.record({ change: call.scenario.change });
    announceDrift(call);
    return hinted(call, call.scenario.reshape(call.hook(result)));
  },
  // The changelog says it from the call before the drift on, as the session's listing shows.
  contract(contract, state) {
    return state.calls < state.onset - 1 ? contract : { ...contract, description: `${contract.description} ${driftNote(state.scenario.change)}` };
  },
});
