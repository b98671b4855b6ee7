import { isDict, type PyDict, PythonError } from './python.js';

// The pydantic models OpenEnv's clients build from an answer (src/openenv/core/env_server/types.py and
// mcp_types.py), reduced to what validation checks: each field's type in pydantic's default (lax) mode,
// which fields are required, their defaults, and whether members the model does not declare are refused
// (extra="forbid") or kept (extra="allow"). Constructing one with values it refuses throws the
// ValidationError pydantic would.

/** A field's validation: its value, or the error pydantic reports (a union's: one per member, each `member\n  message`). */
type Check = (value: unknown) => { value: unknown } | { error: string | string[] };

interface Field {
  check: Check;
  /** A field without a default is required. */
  default?: () => unknown;
}

export interface Model {
  name: string;
  extra: 'forbid' | 'allow';
  fields: Record<string, Field>;
}

const ok = (value: unknown) => ({ value });

const str: Check = (value) => (typeof value === 'string' ? ok(value) : { error: 'Input should be a valid string' });

const optional =
  (check: Check): Check =>
  (value) =>
    value === null ? ok(null) : check(value);

const BOOL_WORDS: Record<string, boolean> = { true: true, false: false, yes: true, no: false, on: true, off: false, t: true, f: false, y: true, n: false };

/** Lax bool: a boolean, 0 or 1, or one of pydantic's words for true and false. */
const bool: Check = (value) => {
  if (typeof value === 'boolean') return ok(value);
  if (value === 0 || value === 1) return ok(value === 1);
  if (typeof value === 'string') {
    const word = value.toLowerCase();
    if (word in BOOL_WORDS) return ok(BOOL_WORDS[word]);
    if (word === '0' || word === '1') return ok(word === '1');
  }
  return { error: 'Input should be a valid boolean' };
};

/** Lax int: an integer, a float without a fraction, or a string of digits; `min` as Field(ge=…). */
const int =
  (min?: number): Check =>
  (value) => {
    const number = typeof value === 'boolean' ? Number(value) : typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
    if (typeof number !== 'number' || !Number.isInteger(number)) return { error: 'Input should be a valid integer' };
    return min !== undefined && number < min ? { error: `Input should be greater than or equal to ${min}` } : ok(number);
  };

/** `bool | int | float | None` (Observation.reward): pydantic's smart union tries bool first, so "1" is True. */
const reward: Check = (value) => {
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return ok(value);
  const refused = { error: ['bool\n  Input should be a valid boolean', 'int\n  Input should be a valid integer', 'float\n  Input should be a valid number'] };
  if (typeof value !== 'string') return refused;
  const asBool = bool(value);
  if ('value' in asBool) return asBool;
  const asInt = int()(value);
  if ('value' in asInt) return asInt;
  const number = Number(value);
  return value.trim() !== '' && Number.isFinite(number) ? ok(number) : refused;
};

const dict: Check = (value) => (isDict(value) ? ok(value) : { error: 'Input should be a valid dictionary' });

const any: Check = ok;

const enumOf =
  (values: readonly string[]): Check =>
  (value) =>
    typeof value === 'string' && values.includes(value) ? ok(value) : { error: `Input should be ${values.map((v) => `'${v}'`).join(', ')}` };

/** A list whose items are instances of a model (already built, as the clients build them item by item). */
const listOf =
  (model: Model): Check =>
  (value) =>
    Array.isArray(value) && value.every((item) => isDict(item) && (item as { __model?: string }).__model === model.name)
      ? ok(value)
      : { error: 'Input should be a valid list' };

/** A nested model's instance, or None. */
const optionalInstance =
  (model: Model): Check =>
  (value) =>
    value === null || (isDict(value) && (value as { __model?: string }).__model === model.name) ? ok(value) : { error: `Input should be ${model.name}` };

/** Builds an instance as `Model(**kwargs)` would: the validated fields and defaults, tagged with the model's name. */
export function construct(model: Model, kwargs: PyDict): PyDict {
  const errors: string[] = [];
  const instance: PyDict = {};
  for (const [name, field] of Object.entries(model.fields)) {
    if (!Object.hasOwn(kwargs, name)) {
      if (field.default) instance[name] = field.default();
      else errors.push(`${name}\n  Field required`);
      continue;
    }
    const checked = field.check(kwargs[name]);
    if ('error' in checked) {
      const input = ` [input_value=${JSON.stringify(kwargs[name]) ?? 'None'}]`;
      if (Array.isArray(checked.error)) errors.push(...checked.error.map((error) => `${name}.${error}${input}`));
      else errors.push(`${name}\n  ${checked.error}${input}`);
    } else instance[name] = checked.value;
  }
  for (const name of Object.keys(kwargs).filter((key) => !Object.hasOwn(model.fields, key))) {
    if (model.extra === 'forbid') errors.push(`${name}\n  Extra inputs are not permitted`);
    else instance[name] = kwargs[name];
  }
  if (errors.length > 0)
    throw new PythonError('ValidationError', `${errors.length} validation error${errors.length === 1 ? '' : 's'} for ${model.name}\n${errors.join('\n')}`);
  Object.defineProperty(instance, '__model', { value: model.name, enumerable: false });
  return instance;
}

/** The model an instance was built as. */
export const modelOf = (instance: unknown): string | undefined => (isDict(instance) ? (instance as { __model?: string }).__model : undefined);

/** env_server/mcp_types.py Tool (extra forbidden). */
export const Tool: Model = { name: 'Tool', extra: 'forbid', fields: { name: { check: str }, description: { check: str }, input_schema: { check: dict } } };

/** env_server/mcp_types.py ToolErrorType's values. */
export const TOOL_ERROR_TYPES = ['execution_error', 'invalid_args', 'transport_error', 'tool_not_found', 'timeout'] as const;

/** env_server/mcp_types.py ToolError (extra forbidden). */
export const ToolError: Model = { name: 'ToolError', extra: 'forbid', fields: { error_type: { check: enumOf(TOOL_ERROR_TYPES) }, message: { check: str } } };

const observationFields: Record<string, Field> = {
  done: { check: bool, default: () => false },
  reward: { check: reward, default: () => null },
  metadata: { check: dict, default: () => ({}) },
};

/** env_server/types.py Observation (extra forbidden). */
export const Observation: Model = { name: 'Observation', extra: 'forbid', fields: observationFields };

/** env_server/mcp_types.py ListToolsObservation. */
export const ListToolsObservation: Model = { name: 'ListToolsObservation', extra: 'forbid', fields: { ...observationFields, tools: { check: listOf(Tool) } } };

/** env_server/mcp_types.py CallToolObservation: tool_name a required, non-null string. */
export const CallToolObservation: Model = {
  name: 'CallToolObservation',
  extra: 'forbid',
  fields: {
    ...observationFields,
    tool_name: { check: str },
    result: { check: any, default: () => null },
    error: { check: optionalInstance(ToolError), default: () => null },
  },
};

/** env_server/types.py State (extra allowed). */
export const State: Model = {
  name: 'State',
  extra: 'allow',
  fields: { episode_id: { check: optional(str), default: () => null }, step_count: { check: int(0), default: () => 0 } },
};
