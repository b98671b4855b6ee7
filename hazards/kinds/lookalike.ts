import type { AnyTool } from '../../domains/tool.js';
import { defineKind, type ScenarioBase } from '../kind.js';

export interface LookalikeScenario extends ScenarioBase<'lookalike'> {
  /**
   * A live decoy listed beside the canonical tool while the hazard is on: a deprecated twin that
   * answers with stale or partial data and says it is deprecated.
   */
  decoy: AnyTool;
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
});
