import type { JsonSchema } from './json-schema.js';

/**
 * The keywords OpenAI's strict mode (Structured Outputs, "Supported schemas") accepts. Everything
 * else a schema says is kept for the model in words, in the description.
 */
const STRICT_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'description',
  'enum',
  'const',
  'anyOf',
  '$ref',
  '$defs',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);

/** The string formats strict mode accepts. */
const STRICT_FORMATS: ReadonlySet<string> = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

/** Regular expression features strict mode's grammar cannot follow: lookaround and backreferences. */
const UNSUPPORTED_PATTERN = /\(\?<?[=!]|\\[1-9]|\\k</;

/** How a constraint strict mode does not take reads in a description. */
const IN_WORDS: Record<string, (value: unknown) => string> = {
  minLength: (n) => `at least ${n} character${n === 1 ? '' : 's'}`,
  maxLength: (n) => `at most ${n} characters`,
  default: (value) => `default: ${JSON.stringify(value)}`,
  format: (value) => `format: ${value}`,
  pattern: (value) => `matches the pattern ${value}`,
  uniqueItems: (value) => (value ? 'no repeated items' : ''),
  minProperties: (n) => `at least ${n} entries`,
  maxProperties: (n) => `at most ${n} entries`,
};

/**
 * A tool's input schema (JSON Schema from zod) as OpenAI's strict mode takes it: every object closed
 * and with all its properties required, each optional one made nullable (a strict model sends null
 * for what it leaves out; the server takes a null optional argument as absent), and the constraints
 * strict mode refuses moved into the description in words. Pure: the schema given is not changed.
 *
 * A map (an object with an `additionalProperties` schema) has no strict form: no tool input has one,
 * and this throws rather than list a schema the server would read differently.
 */
export function strictSchemaOf(schema: JsonSchema): JsonSchema {
  if (schema['type'] !== 'object') throw new Error('a strict schema has an object at its root');
  return convert(schema, false, '');
}

function convert(schema: JsonSchema, optional: boolean, path: string): JsonSchema {
  const out: JsonSchema = {};
  const notes: string[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'description' || key === 'required') continue;
    if (key === 'properties') out['properties'] = convertProperties(schema, path);
    else if (key === 'additionalProperties') {
      if (value !== false) throw new Error(`${path || 'the root'}: a map (additionalProperties ${JSON.stringify(value)}) has no strict form`);
    } else if (key === 'items') out['items'] = convert(value as JsonSchema, false, `${path}[]`);
    else if (key === 'anyOf') out['anyOf'] = (value as JsonSchema[]).map((branch) => convert(branch, false, path));
    else if (key === '$defs')
      out['$defs'] = Object.fromEntries(Object.entries(value as Record<string, JsonSchema>).map(([name, def]) => [name, convert(def, false, `$defs.${name}`)]));
    else if (supported(key, value)) out[key] = value;
    else notes.push(inWords(key, value));
  }
  if (isObject(out)) {
    out['properties'] ??= {};
    out['required'] = Object.keys(out['properties'] as object);
    out['additionalProperties'] = false;
  }
  const description = describe(schema['description'], notes);
  return optional && !acceptsNull(out) ? nullable(out, description) : withDescription(out, description);
}

function convertProperties(schema: JsonSchema, path: string): JsonSchema {
  const required = new Set((schema['required'] ?? []) as string[]);
  const properties = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
  return Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [name, convert(property, !required.has(name), path ? `${path}.${name}` : name)]),
  );
}

function isObject(schema: JsonSchema): boolean {
  const type = schema['type'];
  return type === 'object' || (Array.isArray(type) && type.includes('object')) || 'properties' in schema;
}

function supported(key: string, value: unknown): boolean {
  if (!STRICT_KEYWORDS.has(key)) return false;
  if (key === 'format') return STRICT_FORMATS.has(value as string);
  if (key === 'pattern') return !UNSUPPORTED_PATTERN.test(value as string);
  return true;
}

function inWords(key: string, value: unknown): string {
  return IN_WORDS[key]?.(value) ?? `${key}: ${JSON.stringify(value)}`;
}

function describe(description: unknown, notes: readonly string[]): string | undefined {
  const said = typeof description === 'string' && /\bdefault\b/i.test(description) ? notes.filter((note) => !note.startsWith('default:')) : notes;
  const words = said.filter((note) => note !== '').join('; ');
  if (words === '') return description as string | undefined;
  const sentence = `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
  if (typeof description !== 'string' || description === '') return sentence;
  return /[.!?)]$/.test(description) ? `${description} ${sentence}` : `${description}. ${sentence}`;
}

function withDescription(schema: JsonSchema, description: string | undefined): JsonSchema {
  return description === undefined ? schema : { ...schema, description };
}

/** Whether a schema already takes null (null then keeps its meaning, and nothing is added). */
export function acceptsNull(schema: JsonSchema): boolean {
  const type = schema['type'];
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (schema['const'] === null) return true;
  if (Array.isArray(schema['enum']) && schema['enum'].includes(null)) return true;
  return Array.isArray(schema['anyOf']) && (schema['anyOf'] as JsonSchema[]).some(acceptsNull);
}

/** A schema that also takes null: `type: [T, "null"]` for a plain type, else `anyOf` with null. */
function nullable(schema: JsonSchema, description: string | undefined): JsonSchema {
  const type = schema['type'];
  if (typeof type === 'string' && !('anyOf' in schema) && !('$ref' in schema) && !('const' in schema)) {
    const out: JsonSchema = { ...schema, type: [type, 'null'] };
    if (Array.isArray(schema['enum'])) out['enum'] = [...schema['enum'], null];
    return withDescription(out, description);
  }
  return withDescription({ anyOf: [schema, { type: 'null' }] }, description);
}
