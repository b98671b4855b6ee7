import { hash32 } from '../../lib/random.js';
import { defineKind, type ScenarioBase } from '../kind.js';
import { HAZARD_ERRORS } from '../errors.js';
import { apiError } from '../faults.js';

declare module '../kind.js' {
  interface ScenarioTypes<Db, Tool> {
    outage: OutageScenario;
  }
}

export interface OutageScenario extends ScenarioBase<'outage'> {
  /** A tool that answers the same need while this one is down; none means report honestly. */
  fallback?: string;
}

/** The tool is down for the rest of the session (from its onset call on); nothing runs. */
export const outage = defineKind<OutageScenario>({
  kind: 'outage',
  family: 'execution',
  scope: 'session',
  retryable: false,
  takesDown: true,
  sees: '503 Service Unavailable on every call of the tool, with a maintenance message',
  recovery: 'use the fallback tool when there is one, else tell the user the action is not possible now; never claim success',
  needs: ['retry_after'],
  hint: (s) => (s.fallback ? `This tool is down for now; ${s.fallback} can answer instead.` : 'This tool is down for now and has no substitute.'),
  before(call) {
    // One incident for the whole outage: the same id on every call of the tool in the session.
    const { session, domain, tool } = call.context;
    const incident = `INC-${10000 + (hash32(session.seed, session.scope, domain, tool.name, 'outage') % 90000)}`;
    call.record({ fallback: call.scenario.fallback ?? null, incident });
    return apiError(
      call,
      HAZARD_ERRORS.service_unavailable,
      `${call.context.tool.name} is temporarily unavailable due to an incident. Retrying will not help until it is resolved.`,
      { extra: { incident }, headers: { 'retry-after': '3600' } },
    );
  },
});
