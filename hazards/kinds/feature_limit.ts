import { defineKind, type Hook, type ScenarioBase } from '../kind.js';
import { HAZARD_ERRORS } from '../errors.js';
import { apiError } from '../faults.js';
import { isObject } from '../../lib/object.js';

declare module '../kind.js' {
  interface ScenarioTypes<Db, Tool> {
    feature_limit: FeatureLimitScenario<Db>;
  }
}

export interface FeatureLimitScenario<Db = unknown> extends ScenarioBase<'feature_limit'> {
  /**
   * The limit, seen from one call: a reason when these arguments hit it, null when they don't.
   * The reason names or implies the workaround, which must pass.
   */
  limit(hook: Hook<Db>): string | null;
  status?: 403 | 422;
}

/** Calls that hit a plan, quota or coverage limit fail with a reason; the workaround passes. */
export const featureLimit = defineKind<FeatureLimitScenario>({
  kind: 'feature_limit',
  family: 'execution',
  scope: 'session',
  retryable: false,
  sees: 'a 403/422 with a plan, quota or coverage reason that implies a workaround',
  recovery: 'apply the workaround the reason implies (a smaller page, another identifier, a shorter range)',
  needs: ['act_on_error'],
  hint: () => 'This is a limit of the service, not a bug: adjust the call as the message implies.',
  before(call) {
    const args = call.context.args;
    if (!isObject(args)) return;
    const reason = call.scenario.limit(call.hook());
    if (reason === null) return;
    call.record({ reason });
    return apiError(call, HAZARD_ERRORS.feature_limited, reason, { status: call.scenario.status ?? 422 });
  },
});
