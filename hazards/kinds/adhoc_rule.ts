import { defineKind, type ScenarioBase, type ToolContract } from '../kind.js';
import { HAZARD_ERRORS } from '../errors.js';
import { apiError } from '../faults.js';
import { isObject } from '../../lib/object.js';

declare module '../kind.js' {
  interface ScenarioTypes<Db, Tool> {
    adhoc_rule: AdhocRuleScenario;
  }
}

/** A format a parameter must follow while the rule is on. */
export interface Convention {
  /** The sentence added to the tool's description, e.g. "Order ids are sent without the '#'". */
  rule: string;
  /** The canonical value for a conforming one; null when the value breaks the rule. */
  accept(value: string): string | null;
  /** The terse message of the 422. */
  message: string;
  /**
   * The parameter's description while the rule is on, for a parameter whose own description
   * contradicts the rule (its example or format); by default, its own description and the rule.
   */
  describe?: string;
}

export interface AdhocRuleScenario extends ScenarioBase<'adhoc_rule'> {
  param: string;
  convention: Convention;
}

/**
 * A parameter must follow a convention of this API, documented in the tool's description only
 * while the rule is on. A violation gets a terse 422; a conforming value is accepted.
 */
export const adhocRule = defineKind<AdhocRuleScenario>({
  kind: 'adhoc_rule',
  family: 'specification',
  scope: 'session',
  retryable: false,
  sees: 'a terse 422 about a parameter format; the convention is stated in the tool description',
  recovery: "reformat the parameter as the tool's description says and call again",
  needs: ['reread_listing'],
  hint: (s) => `Read this tool's description: ${s.param} has a required format.`,
  before(call) {
    const { param, convention } = call.scenario;
    const args = call.context.args;
    if (!isObject(args)) return;
    const value = (args as Record<string, unknown>)[param];
    if (typeof value !== 'string') return;
    const canonical = convention.accept(value);
    if (canonical === null) {
      call.record({ param, value });
      return apiError(call, HAZARD_ERRORS.invalid_format, convention.message, { extra: { field: param } });
    }
    call.context.args = { ...(args as Record<string, unknown>), [param]: canonical };
  },
  contract(contract, state) {
    return document(contract, state.scenario, state.hints ? state.hint : undefined);
  },
});

function document(contract: ToolContract, { param, convention }: AdhocRuleScenario, hint?: string): ToolContract {
  const input = structuredClone(contract.input) as { properties?: Record<string, { description?: string }> };
  const field = input.properties?.[param];
  if (field) field.description = convention.describe ?? `${field.description ?? ''} ${convention.rule}`.trim();
  const description = `${contract.description} Note: ${convention.rule}${hint ? ` (${hint})` : ''}`;
  return { ...contract, description, input: input as Record<string, unknown> };
}
