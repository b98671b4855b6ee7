import type { Random } from '../../../lib/random.js';
import { alternatives, flatten, nullable, propertiesOf, type Schema, typeOf } from './schema.js';
import { type FieldError, validate } from './validate.js';

/** How deep generated values nest, and how many values one answer holds at most; past either (a recursive schema), null. */
const MAX_DEPTH = 8;
const MAX_VALUES = 2000;
/** The most items of an array and characters of a string generated, whatever a document's minimum says. */
const MAX_ITEMS = 50;
const MAX_LENGTH = 4096;
const EPOCH = Date.UTC(2026, 0, 1);
const WORDS = ['alpha', 'bravo', 'delta', 'echo', 'harbor', 'lumen', 'maple', 'orbit', 'quartz', 'river', 'sierra', 'tango'];

/**
 * A value a schema accepts, drawn from `random` (the same draws, the same value): its example when it has one that fits,
 * otherwise from its enum, format, range and lengths. `readOnly` members are generated, `writeOnly` ones never.
 */
export function generate(document: unknown, raw: unknown, random: Random, depth = 0, budget = { left: MAX_VALUES }): unknown {
  const schema = flatten(document, raw);
  if (depth > MAX_DEPTH || --budget.left < 0) return null;
  const example = exampleOf(document, schema);
  if (example !== undefined) return structuredClone(example);
  if (schema['const'] !== undefined) return schema['const'];
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0) return random.pick(schema['enum']);
  const choices = alternatives(schema);
  if (choices && choices.length > 0)
    return generate(document, { ...schema, oneOf: undefined, anyOf: undefined, ...flatten(document, random.pick(choices)) }, random, depth + 1, budget);
  switch (typeOf(schema)) {
    case 'object':
      return objectOf(document, schema, random, depth, budget);
    case 'array':
      return arrayOf(document, schema, random, depth, budget);
    case 'integer':
      return Math.round(numberIn(schema, random, true));
    case 'number':
      return Math.round(numberIn(schema, random, false) * 100) / 100;
    case 'boolean':
      return random.bool();
    case 'string':
      return stringOf(schema, random);
    default:
      return nullable(schema) ? null : stringOf(schema, random);
  }
}

type Budget = { left: number };

/** The schema's example (`example`, or the first of `examples`) when it fits the schema: a document's wrong example is not served. */
function exampleOf(document: unknown, schema: Schema): unknown {
  const example = schema['example'] !== undefined ? schema['example'] : Array.isArray(schema['examples']) ? schema['examples'][0] : undefined;
  if (example === undefined) return undefined;
  const errors: FieldError[] = [];
  validate(document, schema, example, '', errors);
  return errors.length === 0 ? example : undefined;
}

function objectOf(document: unknown, schema: Schema, random: Random, depth: number, budget: Budget): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(propertiesOf(schema))) {
    if (flatten(document, member)['writeOnly'] === true) continue;
    out[name] = generate(document, member, random, depth + 1, budget);
  }
  return out;
}

function arrayOf(document: unknown, schema: Schema, random: Random, depth: number, budget: Budget): unknown[] {
  const min = Math.min(typeof schema['minItems'] === 'number' ? schema['minItems'] : 1, MAX_ITEMS);
  const max = Math.max(min, Math.min(typeof schema['maxItems'] === 'number' ? schema['maxItems'] : min + 2, min + 5));
  return Array.from({ length: random.int(min, max) }, () => generate(document, schema['items'], random, depth + 1, budget));
}

function numberIn(schema: Schema, random: Random, integer: boolean): number {
  const exclusiveMin = typeof schema['exclusiveMinimum'] === 'number' ? schema['exclusiveMinimum'] : undefined;
  const exclusiveMax = typeof schema['exclusiveMaximum'] === 'number' ? schema['exclusiveMaximum'] : undefined;
  const step = integer ? 1 : 0.01;
  let min = typeof schema['minimum'] === 'number' ? schema['minimum'] : exclusiveMin !== undefined ? exclusiveMin + step : undefined;
  let max = typeof schema['maximum'] === 'number' ? schema['maximum'] : exclusiveMax !== undefined ? exclusiveMax - step : undefined;
  // 3.0's boolean exclusiveMinimum/Maximum move the bound by a step.
  if (min !== undefined && schema['exclusiveMinimum'] === true) min += step;
  if (max !== undefined && schema['exclusiveMaximum'] === true) max -= step;
  min ??= max === undefined ? 1 : Math.min(1, max - 1000);
  max ??= min + 1000;
  if (integer) return random.int(Math.ceil(min), Math.max(Math.ceil(min), Math.floor(max)));
  return Math.min(max, Math.ceil((min + random.next() * (max - min)) * 100) / 100);
}

function stringOf(schema: Schema, random: Random): string {
  switch (schema['format']) {
    case 'date-time':
      return new Date(EPOCH + random.int(0, 365 * 86_400) * 1000).toISOString().replace('.000Z', 'Z');
    case 'date':
      return new Date(EPOCH + random.int(0, 365) * 86_400_000).toISOString().slice(0, 10);
    case 'email':
      return `${random.pick(WORDS)}.${random.int(1, 999)}@example.com`;
    case 'uuid':
      return uuid(random);
    case 'uri':
    case 'url':
      return `https://example.com/${random.pick(WORDS)}/${random.int(1, 9999)}`;
  }
  const min = Math.min(typeof schema['minLength'] === 'number' ? schema['minLength'] : 1, MAX_LENGTH);
  const max = typeof schema['maxLength'] === 'number' ? schema['maxLength'] : Math.max(min, 24);
  let text = `${random.pick(WORDS)}-${random.int(100, 999)}`;
  while (text.length < min) text += random.pick('abcdefghijklmnopqrstuvwxyz'.split(''));
  return text.slice(0, Math.max(min, Math.min(max, text.length)));
}

/** A version 4 UUID made of the generator's draws. */
export function uuid(random: Random): string {
  const hex = Array.from({ length: 32 }, () => random.int(0, 15).toString(16));
  hex[12] = '4';
  hex[16] = (8 + random.int(0, 3)).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}
