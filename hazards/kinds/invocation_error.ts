import { defineKind, type ScenarioBase } from '../kind.js';
import { HAZARD_ERRORS } from '../errors.js';
import { apiError } from '../faults.js';
import { isObject } from '../../lib/object.js';

declare module '../kind.js' {
  interface ScenarioTypes<Db, Tool> {
    invocation_error: InvocationErrorScenario;
  }
}

export interface InvocationErrorScenario extends ScenarioBase<'invocation_error'> {
  /** The argument every call must carry while the hazard is on (removed before the tool runs). */
  requirement: 'idempotency_key' | 'api_version';
}

const NEEDS = {
  idempotency_key: {
    error: HAZARD_ERRORS.idempotency_key_required,
    detail: 'This operation requires an idempotency key. Repeat the call with an additional "idempotency_key" argument: any unique string, e.g. a UUID.',
    valid: (value: unknown) => typeof value === 'string' && value.trim().length >= 8,
  },
  api_version: {
    error: HAZARD_ERRORS.api_version_required,
    detail: 'Missing API version. Repeat the call with an additional "api_version": "2024-05-01" argument.',
    valid: (value: unknown) => value === '2024-05-01',
  },
} as const;

/** A correct call is refused until it carries what the error names; nothing runs. */
export const invocationError = defineKind<InvocationErrorScenario>({
  kind: 'invocation_error',
  family: 'invocation',
  scope: 'session',
  retryable: false,
  sees: 'a 428/400 error naming an argument the call must carry (an idempotency key, an API version)',
  recovery: 'repeat the call with the argument the error names',
  // An agent that sends every write with an idempotency key never meets the error that asks for one.
  needs: ['act_on_error', 'idempotency_key'],
  hint: (s) => `Calls to this tool must include "${s.requirement}".`,
  before(call) {
    const need = NEEDS[call.scenario.requirement];
    const args = call.context.args;
    if (isObject(args) && call.scenario.requirement in args) {
      const { [call.scenario.requirement]: value, ...rest } = args as Record<string, unknown>;
      if (need.valid(value)) {
        // An idempotency key is the tool's own argument (writes deduplicate with it); a version is the API's.
        if (call.scenario.requirement === 'api_version') call.context.args = rest;
        return;
      }
    }
    call.record({ requirement: call.scenario.requirement });
    return apiError(call, need.error, need.detail);
  },
  // While the requirement holds, the session's listing and OpenAPI declare the argument as required.
  contract(contract, state) {
    const name = state.scenario.requirement;
    const input = structuredClone(contract.input) as { properties?: Record<string, unknown>; required?: string[] };
    input.properties = { ...input.properties, [name]: input.properties?.[name] ?? { type: 'string', description: DECLARED[name] } };
    input.required = [...new Set([...(input.required ?? []), name])];
    return { ...contract, input };
  },
});

const DECLARED = {
  idempotency_key: 'Any unique string identifying this operation.',
  api_version: "The API version the call is written for: '2024-05-01'.",
};
