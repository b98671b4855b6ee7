import { isObject } from '../../../lib/object.js';
import { alternatives, flatten, nullable, propertiesOf, type Schema, typeOf } from './schema.js';

/** One refused field, as the built-in tools' problems list them. */
export interface FieldError {
  field: string;
  message: string;
}

/** The formats checked: what a value must match, and how a message names such a value. */
const FORMATS: Record<string, { pattern: RegExp; name: string }> = {
  'date-time': { pattern: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i, name: 'a date-time (RFC 3339, e.g. 2026-01-31T09:30:00Z)' },
  date: { pattern: /^\d{4}-\d{2}-\d{2}$/, name: 'a date (YYYY-MM-DD)' },
  email: { pattern: /^[^@\s]+@[^@\s]+\.[^@\s]+$/, name: 'an email address' },
  uuid: { pattern: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, name: 'a UUID' },
};

/**
 * Whether a request value fits its schema: each mismatch is one error naming the field (`items[2].email`).
 * `pattern` is not tested (a document's regex could backtrack catastrophically); `readOnly` members of a
 * request are ignored, as the server sets them.
 */
export function validate(document: unknown, raw: unknown, value: unknown, field: string, errors: FieldError[], depth = 0): void {
  if (depth > 32) return;
  const schema = flatten(document, raw);
  const before = errors.length;
  if (Array.isArray(schema['allOf'])) for (const part of schema['allOf']) validate(document, part, value, field, errors, depth + 1);
  if (value === null) {
    if (!nullable(schema) && Object.keys(schema).length > 0) errors.push({ field, message: 'must not be null' });
    return;
  }
  if (schema['const'] !== undefined && JSON.stringify(schema['const']) !== JSON.stringify(value)) {
    errors.push({ field, message: `must be ${JSON.stringify(schema['const'])}` });
    return;
  }
  if (Array.isArray(schema['enum']) && !schema['enum'].some((option) => JSON.stringify(option) === JSON.stringify(value))) {
    errors.push({ field, message: `must be one of ${schema['enum'].map((option) => JSON.stringify(option)).join(', ')}` });
    return;
  }
  const choices = alternatives(schema);
  if (choices && choices.length > 0) {
    const fits = choices.some((choice) => {
      const found: FieldError[] = [];
      validate(document, choice, value, field, found, depth + 1);
      return found.length === 0;
    });
    if (!fits) errors.push({ field, message: `matches none of the ${choices.length} alternatives (${Array.isArray(schema['oneOf']) ? 'oneOf' : 'anyOf'})` });
  }
  const type = typeOf(schema);
  if (type !== undefined && !hasType(value, type)) {
    errors.push({ field, message: `must be ${article(type)}` });
    return;
  }
  if (errors.length > before) return;
  if (typeof value === 'string') checkString(schema, value, field, errors);
  else if (typeof value === 'number') checkNumber(schema, value, field, errors);
  else if (Array.isArray(value)) {
    if (typeof schema['minItems'] === 'number' && value.length < schema['minItems'])
      errors.push({ field, message: `must hold at least ${count(schema['minItems'], 'item')}` });
    if (typeof schema['maxItems'] === 'number' && value.length > schema['maxItems'])
      errors.push({ field, message: `must hold at most ${count(schema['maxItems'], 'item')}` });
    for (const [index, item] of value.entries()) validate(document, schema['items'], item, `${field}[${index}]`, errors, depth + 1);
  } else if (isObject(value)) checkObject(document, schema, value, field, errors, depth);
}

function checkObject(document: unknown, schema: Schema, value: Record<string, unknown>, field: string, errors: FieldError[], depth: number): void {
  const properties = propertiesOf(schema);
  const prefix = field ? `${field}.` : '';
  for (const name of Array.isArray(schema['required']) ? schema['required'] : []) {
    if (typeof name !== 'string' || value[name] !== undefined) continue;
    if (flatten(document, properties[name])['readOnly'] === true) continue;
    errors.push({ field: prefix + name, message: 'is required' });
  }
  for (const [name, member] of Object.entries(value)) {
    if (!Object.hasOwn(properties, name)) {
      if (schema['additionalProperties'] === false) errors.push({ field: prefix + name, message: 'is not a member of this object' });
      continue;
    }
    if (flatten(document, properties[name])['readOnly'] === true) continue;
    validate(document, properties[name], member, prefix + name, errors, depth + 1);
  }
}

function checkString(schema: Schema, value: string, field: string, errors: FieldError[]): void {
  if (typeof schema['minLength'] === 'number' && value.length < schema['minLength'])
    errors.push({ field, message: `must be at least ${count(schema['minLength'], 'character')}` });
  if (typeof schema['maxLength'] === 'number' && value.length > schema['maxLength'])
    errors.push({ field, message: `must be at most ${count(schema['maxLength'], 'character')}` });
  const format = typeof schema['format'] === 'string' && Object.hasOwn(FORMATS, schema['format']) ? FORMATS[schema['format']] : undefined;
  if (format && !format.pattern.test(value)) errors.push({ field, message: `must be ${format.name}` });
  if ((schema['format'] === 'uri' || schema['format'] === 'url') && !URL.canParse(value)) errors.push({ field, message: 'must be an absolute URL' });
}

function checkNumber(schema: Schema, value: number, field: string, errors: FieldError[]): void {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema;
  if (typeof minimum === 'number' && (exclusiveMinimum === true ? value <= minimum : value < minimum))
    errors.push({ field, message: `must be at least ${minimum}` });
  if (typeof maximum === 'number' && (exclusiveMaximum === true ? value >= maximum : value > maximum))
    errors.push({ field, message: `must be at most ${maximum}` });
  if (typeof exclusiveMinimum === 'number' && value <= exclusiveMinimum) errors.push({ field, message: `must be above ${exclusiveMinimum}` });
  if (typeof exclusiveMaximum === 'number' && value >= exclusiveMaximum) errors.push({ field, message: `must be below ${exclusiveMaximum}` });
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    default:
      return true;
  }
}

const article = (type: string) => (type === 'integer' || type === 'array' || type === 'object' ? `an ${type}` : `a ${type}`);

/** A path, query or header value (always text) as its schema reads it: a number, a boolean, a list. */
export function coerceParameter(document: unknown, raw: unknown, value: unknown): unknown {
  const schema = flatten(document, raw);
  const type = typeOf(schema);
  if (type === 'array') return (Array.isArray(value) ? value : String(value).split(',')).map((item) => coerceParameter(document, schema['items'], item));
  if (typeof value !== 'string') return value;
  if ((type === 'integer' || type === 'number') && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

const count = (n: unknown, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
