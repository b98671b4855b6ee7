import { defineKind, type HazardTool, type ScenarioBase } from '../kind.js';
import { hinted } from '../faults.js';

declare module '../kind.js' {
  interface ScenarioTypes<Db, Tool> {
    lookalike: LookalikeScenario<Tool>;
  }
}

export interface LookalikeScenario<Tool = HazardTool> extends ScenarioBase<'lookalike'> {
  /**
   * A live decoy listed beside the canonical tool while the hazard is on: a deprecated twin that
   * answers with stale or partial data and says it is deprecated.
   */
  decoy: Tool & HazardTool;
}

/** Decoy tools appear in the listing; calling one is recorded as falling for it. */
export const lookalike = defineKind<LookalikeScenario>({
  kind: 'lookalike',
  family: 'specification',
  scope: 'session',
  retryable: false,
  sees: 'extra tools in the listing that look like the canonical one but are deprecated and answer partially',
  recovery: 'call the canonical tool; treat deprecated answers as unreliable',
  hint: (s) => `${s.decoy.name} is deprecated; ${s.tool} is the maintained tool.`,
  before(call) {
    if (call.context.tool.name === call.scenario.decoy.name) call.record({ decoy: call.scenario.decoy.name, canonical: call.scenario.tool });
  },
  // In hints mode the decoy's answer says which tool is maintained; the canonical tool answers as it is.
  after(call, result) {
    return call.context.tool.name === call.scenario.decoy.name ? hinted(call, result) : result;
  },
  // The canonical tool's contract (the decoy's is listed as declared): in hints mode, it names the decoy.
  contract(contract, state) {
    return state.hints ? { ...contract, description: `${contract.description} (${state.hint})` } : contract;
  },
});
