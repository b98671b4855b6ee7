import fc from 'fast-check';
import type { JsonSchema } from '../../lib/json-schema.js';
import { INHERITED, isIdLike } from '../helpers/keys.js';
import type { Pools } from './pools.js';

/** One fuzzed request to a tool, and what the fuzzer knows it should get. */
export interface FuzzCase {
  domain: string;
  tool: string;
  /** A JSON value sent as the body, or raw text (with its content type). */
  body: { json: unknown } | { raw: string; contentType: string };
  /** How it was made: valid, mutated, root, raw. */
  kind: 'valid' | 'mutated' | 'root' | 'raw';
  /** The top-level field given a wrong shape ('arguments' for the whole body): the problem must name it. */
  broken?: string;
  /** An inherited name in an id-like field (`field=name`): the call must be refused. */
  inherited?: string;
}

export interface FuzzTool {
  domain: string;
  name: string;
  input: JsonSchema;
}

const HUGE = 'Ω'.repeat(60_000);
const STRANGE = ['', ' ', '\u0000', '../../etc/passwd', '%00', "'; DROP TABLE orders; --", '{{7*7}}', '\ud800', '𝓌𝒾𝓁𝒹', '#W0000000'];
const dateText = fc
  .date({ min: new Date('2023-01-01T00:00:00Z'), max: new Date('2025-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

/** A value the schema accepts in shape, its strings mostly drawn from the databases, sometimes hostile. */
function arbitraryValue(schema: JsonSchema, field: string, pools: Pools, depth = 0): fc.Arbitrary<unknown> {
  if (Array.isArray(schema['enum'])) return fc.constantFrom(...(schema['enum'] as unknown[]));
  const type = schema['type'];
  if (Array.isArray(type)) return fc.oneof(...type.map((t) => arbitraryValue({ ...schema, type: t }, field, pools, depth)));
  switch (type) {
    case 'string':
      return stringOf(schema, field, pools);
    case 'integer': {
      const min = Number(schema['minimum'] ?? (schema['exclusiveMinimum'] !== undefined ? Number(schema['exclusiveMinimum']) + 1 : -1000));
      return fc.integer({ min, max: Number(schema['maximum'] ?? Math.max(min, 0) + 1000) });
    }
    case 'number': {
      const min = Number(schema['minimum'] ?? schema['exclusiveMinimum'] ?? -1e6);
      const max = Number(schema['maximum'] ?? 1e6);
      return fc
        .double({ min, max, noNaN: true, noDefaultInfinity: true })
        .filter((n) => schema['exclusiveMinimum'] === undefined || n > Number(schema['exclusiveMinimum']));
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = (schema['items'] ?? {}) as JsonSchema;
      const minLength = Number(schema['minItems'] ?? 0);
      return fc.array(arbitraryValue(items, field, pools, depth + 1), {
        minLength,
        maxLength: Math.max(minLength, Math.min(Number(schema['maxItems'] ?? 4), 4)),
      });
    }
    case 'object':
      return objectOf(schema, pools, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringOf(schema: JsonSchema, field: string, pools: Pools): fc.Arbitrary<string> {
  const isDate = schema['format'] === 'date' || (typeof schema['pattern'] === 'string' && schema['pattern'].includes('\\d{4}-'));
  const pool = pools.get(field);
  const options: fc.WeightedArbitrary<string>[] = [
    { weight: 2, arbitrary: fc.constantFrom(...INHERITED) },
    { weight: 2, arbitrary: fc.string({ minLength: Number(schema['minLength'] ?? 0), maxLength: 24 }) },
    { weight: 1, arbitrary: fc.constantFrom(...STRANGE) },
    { weight: 1, arbitrary: fc.constant(HUGE) },
  ];
  if (isDate) options.push({ weight: 8, arbitrary: dateText });
  if (pool && pool.length > 0) options.push({ weight: 10, arbitrary: fc.constantFrom(...pool) });
  return fc.oneof(...options);
}

function objectOf(schema: JsonSchema, pools: Pools, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = (schema['required'] ?? []) as string[];
  if (depth > 4) return fc.constant({});
  const model = Object.fromEntries(Object.entries(properties).map(([name, inner]) => [name, arbitraryValue(inner, name, pools, depth + 1)]));
  return fc.record(model, { requiredKeys: required.filter((name) => name in properties) });
}

/** The first id-like field (at any depth) that holds an inherited name, as `field=name`. */
function inheritedIn(value: unknown, field = ''): string | undefined {
  if (typeof value === 'string') return isIdLike(field) && (INHERITED as readonly string[]).includes(value) ? `${field}=${value}` : undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = inheritedIn(item, field);
      if (found) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      const found = inheritedIn(inner, key);
      if (found) return found;
    }
  }
  return undefined;
}

const nested = (depth: number): unknown => (depth === 0 ? 'x' : [nested(depth - 1)]);
const WRONG_VALUES = [42, -1.5, true, null, 'text', [], {}, ['a', 1], { nested: { deeper: [1, 2] } }];

/** Valid arguments with one thing broken: a required field missing, a field of the wrong type, an unknown field. */
function mutatedOf(tool: FuzzTool, pools: Pools): fc.Arbitrary<FuzzCase> {
  const properties = Object.keys((tool.input['properties'] ?? {}) as Record<string, unknown>);
  const required = (tool.input['required'] ?? []) as string[];
  const mutations: fc.Arbitrary<{ args: Record<string, unknown>; broken: string }>[] = [];
  const valid = objectOf(tool.input, pools, 0);
  if (required.length > 0) {
    mutations.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([args, field]) => {
        const { [field]: _dropped, ...rest } = args;
        return { args: rest, broken: field };
      }),
    );
  }
  if (properties.length > 0) {
    const types = (tool.input['properties'] ?? {}) as Record<string, JsonSchema>;
    mutations.push(
      fc
        .tuple(valid, fc.constantFrom(...properties), fc.oneof(fc.constantFrom(...WRONG_VALUES), fc.integer({ min: 2, max: 60 }).map(nested)))
        // A null optional argument is taken as absent (what a strict client sends): it breaks nothing.
        .filter(([, field, wrong]) => !accepts(types[field]!, wrong) && !(wrong === null && !required.includes(field)))
        .map(([args, field, wrong]) => ({ args: { ...args, [field]: wrong }, broken: field })),
    );
  }
  const unknown = fc.oneof(
    fc.constantFrom('constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', 'extra'),
    fc.string({ minLength: 1, maxLength: 12 }),
  );
  mutations.push(
    fc
      .tuple(valid, unknown, fc.jsonValue({ maxDepth: 2 }))
      .filter(([, name]) => !properties.includes(name) && name !== '__proto__')
      .map(([args, name, value]) => ({ args: { ...args, [name]: value }, broken: name })),
  );
  return fc.oneof(...mutations).map(({ args, broken }) => ({ domain: tool.domain, tool: tool.name, kind: 'mutated' as const, body: { json: args }, broken }));
}

/** Whether a value obviously fits a property's schema in type (so replacing with it breaks nothing). */
function accepts(schema: JsonSchema, value: unknown): boolean {
  if (Array.isArray(schema['enum'])) return (schema['enum'] as unknown[]).includes(value);
  const types = Array.isArray(schema['type']) ? (schema['type'] as string[]) : [schema['type'] as string | undefined];
  if (types.includes(undefined)) return true;
  const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return types.some((type) => type === actual || (type === 'integer' && Number.isInteger(value)) || (type === 'number' && actual === 'number'));
}

const ROOTS = [[], ['order_id'], 'get it', 17, true] as const;

/** Bodies that are not arguments at all, or not JSON, or past a limit. */
const RAW: { raw: string; contentType: string }[] = [
  { raw: '{"order_id": "#W1",', contentType: 'application/json' },
  { raw: '{"__proto__": {"polluted": true}}', contentType: 'application/json' },
  { raw: '{"a": {"constructor": {"prototype": {"polluted": true}}}}', contentType: 'application/json' },
  { raw: `{"x": ${'['.repeat(5000)}${']'.repeat(5000)}}`, contentType: 'application/json' },
  { raw: `{"x": ${'{"y":'.repeat(65)}1${'}'.repeat(65)}}`, contentType: 'application/json' },
  { raw: JSON.stringify({ order_id: 'x'.repeat(1_100_000) }), contentType: 'application/json' },
  { raw: 'order_id=%23W1', contentType: 'application/x-www-form-urlencoded' },
  { raw: 'cancel it', contentType: 'text/plain' },
  { raw: '   ', contentType: 'application/json' },
];

/** Every kind of case for one tool, mostly valid-shaped. */
export function casesOf(tool: FuzzTool, pools: Pools): fc.Arbitrary<FuzzCase> {
  const valid = objectOf(tool.input, pools, 0).map((args): FuzzCase => {
    const inherited = inheritedIn(args);
    return { domain: tool.domain, tool: tool.name, kind: 'valid', body: { json: args }, ...(inherited ? { inherited } : {}) };
  });
  const root = fc.constantFrom(...ROOTS).map((json): FuzzCase => ({ domain: tool.domain, tool: tool.name, kind: 'root', body: { json }, broken: 'arguments' }));
  const raw = fc.constantFrom(...RAW).map((body): FuzzCase => ({ domain: tool.domain, tool: tool.name, kind: 'raw', body }));
  return fc.oneof(
    { weight: 12, arbitrary: valid },
    { weight: 6, arbitrary: mutatedOf(tool, pools) },
    { weight: 1, arbitrary: root },
    { weight: 1, arbitrary: raw },
  );
}
