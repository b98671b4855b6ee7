import { invalidInput, refusalOf } from '../../lib/problem.js';
import { defineKind, type HazardTool, type ScenarioBase, type ToolContract } from '../kind.js';
import { apiError } from '../faults.js';
import { announceDrift, API_VERSION_HEADER, DRIFTED_VERSION, driftNote } from '../versions.js';

declare module '../kind.js' {
  interface ScenarioTypes<Db, Tool> {
    spec_drift: SpecDriftScenario;
  }
}

export interface SpecDriftScenario extends ScenarioBase<'spec_drift'> {
  /** The parameter renamed from the drift point on. */
  rename: { from: string; to: string };
}

type Schema = { properties?: Record<string, unknown>; required?: string[] };

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
  hint: (s) => `The API changed: re-read the tool's schema (a parameter was renamed from ${s.rename.from}).`,
  before(call) {
    const { from, to } = call.scenario.rename;
    const args = call.context.args;
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return;
    const record = args as Record<string, unknown>;
    if (from in record) {
      call.record({ renamed: { from, to }, sent: 'old' });
      return apiError(call, 400, 'invalid_input', ...refusal(call.context.tool, record, from, to), { [API_VERSION_HEADER]: DRIFTED_VERSION });
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
function refusal(tool: HazardTool, args: Record<string, unknown>, from: string, to: string): [string, { errors: FieldError[] }] {
  const { [from]: old, ...rest } = args;
  const asTool = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key === to ? from : key, value]));
  const errors = [{ field: from, message: `unknown field '${from}'` }, ...othersOf(tool, asTool, old, from, to)];
  return [`Invalid arguments: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`, { errors }];
}

type FieldError = { field: string; message: string };

/** Per tool and rename: what is said when the renamed parameter is all that is wrong (a literal agent's every call). */
const missingOnly = new WeakMap<HazardTool, Map<string, readonly FieldError[]>>();

/**
 * The mistakes besides the old name. Explaining a refusal walks zod's slow failing path; when the
 * arguments pass with the old value put back, the only mistake is the missing parameter, whose
 * explanation depends on the tool alone and is worked out once.
 */
function othersOf(tool: HazardTool, asTool: Record<string, unknown>, old: unknown, from: string, to: string): readonly FieldError[] {
  const passes = (args: Record<string, unknown>) => tool.input.safeParse(args).success;
  if (from in asTool) return passes(asTool) ? [] : explained(tool, asTool, from, to);
  if (!passes({ ...asTool, [from]: old })) return explained(tool, asTool, from, to);
  const known = missingOnly.get(tool) ?? new Map<string, readonly FieldError[]>();
  missingOnly.set(tool, known);
  const key = `${from}\u001f${to}`;
  const errors = known.get(key) ?? explained(tool, asTool, from, to);
  known.set(key, errors);
  return errors;
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
  const description = `${contract.description.replaceAll(from, to)} ${driftNote(`${from} is renamed ${to}`)}${hint ? ` (${hint})` : ''}`;
  return { ...contract, description, input: input as Record<string, unknown> };
}
