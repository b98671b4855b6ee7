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

/** When the decoys were deprecated, and when they go away: before and after the sessions' default clock (May 2024). */
const DEPRECATION = `@${Date.UTC(2024, 0, 31) / 1000}`;
const SUNSET = new Date(Date.UTC(2024, 8, 30, 23, 59, 59)).toUTCString();

/** Decoy tools appear in the listing; calling one is recorded as falling for it. */
export const lookalike = defineKind<LookalikeScenario>({
  kind: 'lookalike',
  family: 'specification',
  scope: 'session',
  retryable: false,
  sees: 'extra tools in the listing that look like the canonical one but are deprecated and answer partially',
  recovery: 'call the canonical tool; treat deprecated answers as unreliable',
  needs: ['follow_successor'],
  hint: (s) => `${s.decoy.name} is deprecated; ${s.tool} is the maintained tool.`,
  before(call) {
    if (call.context.tool.name === call.scenario.decoy.name) call.record({ decoy: call.scenario.decoy.name, canonical: call.scenario.tool });
  },
  // The decoy answers as deprecated endpoints do (RFC 9745, RFC 8594): the date it was deprecated, the
  // date it goes away, and its successor. In hints mode its answer also says which tool is maintained.
  after(call, result) {
    if (call.context.tool.name !== call.scenario.decoy.name) return result;
    call.header('deprecation', DEPRECATION);
    call.header('sunset', SUNSET);
    call.header('link', `</${call.context.domain}/tools/${call.scenario.tool}>; rel="successor-version"`);
    return hinted(call, result);
  },
  // The canonical tool's contract (the decoy's is listed as declared): in hints mode, it names the decoy.
  contract(contract, state) {
    return state.hints ? { ...contract, description: `${contract.description} (${state.hint})` } : contract;
  },
});
