import { deepFreeze } from '../../lib/freeze.js';
import { invalidInput, type Problem, problem, refusalOf } from '../../lib/problem.js';
import { defineKind, type HazardTool, type ScenarioBase, type ToolContract } from '../kind.js';
import { HAZARD_ERRORS } from '../errors.js';
import { problemFault } from '../faults.js';
import { renameIdentifier } from '../identifiers.js';
import { announceDrift, API_VERSION_HEADER, DRIFTED_VERSION, driftNote } from '../versions.js';
import { isObject } from '../../lib/object.js';

declare module '../kind.js' {
  interface ScenarioTypes<Db, Tool> {
    spec_drift: SpecDriftScenario;
  }
}

export interface SpecDriftScenario extends ScenarioBase<'spec_drift'> {
  /** The parameter renamed from the drift point on. */
  rename: { from: string; to: string };
}

type Schema = { properties?: Record<string, { description?: string }>; required?: string[] };

/**
 * From the drift point (the scenario's onset call, default 2) a parameter has a new name: the old
 * one gets a 400 naming the unknown field; the session's listing and OpenAPI show the new contract.
 */
export const specDrift = defineKind<SpecDriftScenario>({
  kind: 'spec_drift',
  family: 'specification',
  scope: 'session',
  onset: 2,
  retryable: false,
  sees: "a 400 naming the old parameter as unknown; the listing now shows the parameter's new name",
  recovery: 're-read the tool listing (or OpenAPI) and call with the new parameter name',
  needs: ['reread_listing'],
  hint: (s) => `The API changed: re-read the tool's schema (a parameter was renamed from ${s.rename.from}).`,
  before(call) {
    const { from, to } = call.scenario.rename;
    const args = call.context.args;
    if (!isObject(args)) return;
    const record = args as Record<string, unknown>;
    if (from in record) {
      call.record({ renamed: { from, to }, sent: 'old' });
      return problemFault(call, refusal(call.context.tool, record, from, to), { [API_VERSION_HEADER]: DRIFTED_VERSION });
    }
    announceDrift(call);
    if (to in record) {
      const { [to]: value, ...rest } = record;
      call.context.args = { ...rest, [from]: value };
    }
  },
  contract(contract, state) {
    // The listing changes when the next call is the drifted one.
    if (state.calls < state.onset - 1) return contract;
    return renameParameter(contract, state.scenario.rename, state.hints ? state.hint : undefined);
  },
});

/**
 * What validation against the drifted contract says of arguments that use the old name: the old
 * name is an unknown field, and the rest is checked as the tool checks it (a required parameter
 * missing under its new name, any other mistake), with the new name in the messages.
 */
function refusal(tool: HazardTool, args: Record<string, unknown>, from: string, to: string): Problem {
  const { [from]: old, ...rest } = args;
  const asTool = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key === to ? from : key, value]));
  const passes = (value: Record<string, unknown>) => tool.input.safeParse(value).success;
  if (from in asTool) return refusalProblem(from, passes(asTool) ? [] : explained(tool, asTool, from, to));
  if (!passes({ ...asTool, [from]: old })) return refusalProblem(from, explained(tool, asTool, from, to));
  // The old name is the only mistake: the refusal depends on the tool and the rename alone.
  const key = `${from}\u001f${to}`;
  const known = onlyTheName.get(tool);
  const cached = known?.get(key);
  if (cached) return cached;
  const refused = deepFreeze(refusalProblem(from, explained(tool, asTool, from, to)));
  onlyTheName.set(tool, (known ?? new Map<string, Problem>()).set(key, refused));
  return refused;
}

type FieldError = { field: string; message: string };

/**
 * Per tool and rename, the refusal of a call whose only mistake is the old name (a literal agent's every
 * call): worked out once, since explaining walks zod's slow failing path, and frozen, so that its text is
 * made once too and every journal entry shares it.
 */
const onlyTheName = new WeakMap<HazardTool, Map<string, Problem>>();

function refusalProblem(from: string, others: readonly FieldError[]): Problem {
  const errors = [{ field: from, message: `unknown field '${from}'` }, ...others];
  return problem(
    HAZARD_ERRORS.invalid_input.status,
    HAZARD_ERRORS.invalid_input.code,
    `Invalid arguments: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`,
    { errors },
  );
}

function explained(tool: HazardTool, asTool: Record<string, unknown>, from: string, to: string): FieldError[] {
  const refused = refusalOf(tool.input, asTool);
  const renamed = (field: string) => (field === from || field.startsWith(`${from}.`) ? to + field.slice(from.length) : field);
  return !refused ? [] : invalidInput(refused).errors!.map((e) => ({ field: renamed(e.field), message: e.message.replaceAll(`'${from}'`, `'${to}'`) }));
}

function renameParameter(contract: ToolContract, { from, to }: { from: string; to: string }, hint?: string): ToolContract {
  const input = structuredClone(contract.input) as Schema;
  if (input.properties && from in input.properties) {
    input.properties = Object.fromEntries(Object.entries(input.properties).map(([key, value]) => [key === from ? to : key, value]));
  }
  if (input.required) input.required = input.required.map((name) => (name === from ? to : name));
  // The documentation names the parameter by its new name where it names it as an identifier; prose keeps its words.
  for (const property of Object.values(input.properties ?? {}))
    if (typeof property.description === 'string') property.description = renameIdentifier(property.description, from, to);
  const description = `${renameIdentifier(contract.description, from, to)} ${driftNote(`${from} is renamed ${to}`)}${hint ? ` (${hint})` : ''}`;
  return { ...contract, description, input: input as Record<string, unknown> };
}
