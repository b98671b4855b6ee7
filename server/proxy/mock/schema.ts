import { isObject } from '../../../lib/object.js';
import { resolve } from '../operations.js';

export type Schema = Record<string, unknown>;

/** Schemas flattened, by the document's own schema object: a document is read, never changed, so each is flattened once. */
const flattened = new WeakMap<object, Schema>();

/** A schema with its `$ref` followed and its `allOf` merged into one (properties and required united). */
export function flatten(document: unknown, raw: unknown): Schema {
  if (!isObject(raw)) return {};
  let schema = flattened.get(raw);
  if (!schema) {
    schema = flattenOnce(document, raw, 0);
    flattened.set(raw, schema);
  }
  return schema;
}

function flattenOnce(document: unknown, raw: unknown, depth: number): Schema {
  const schema = resolve(document, raw);
  if (!isObject(schema)) return {};
  if (!Array.isArray(schema['allOf']) || depth > 8) return schema;
  const { allOf, ...rest } = schema;
  const merged: Schema = { ...rest };
  const properties: Schema = isObject(rest['properties']) ? { ...rest['properties'] } : {};
  const required = new Set<unknown>(Array.isArray(rest['required']) ? rest['required'] : []);
  for (const part of allOf as unknown[]) {
    const flat = flattenOnce(document, part, depth + 1);
    for (const [key, value] of Object.entries(flat)) if (!(key in merged) && key !== 'properties' && key !== 'required') merged[key] = value;
    if (isObject(flat['properties'])) Object.assign(properties, flat['properties']);
    for (const name of Array.isArray(flat['required']) ? flat['required'] : []) required.add(name);
  }
  if (Object.keys(properties).length > 0) merged['properties'] = properties;
  if (required.size > 0) merged['required'] = [...required];
  return merged;
}

/** The schema's type: its `type` (the first that is not "null" when 3.1 lists several), or what its keywords imply. */
export function typeOf(schema: Schema): string | undefined {
  const type = schema['type'];
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((t) => t !== 'null') as string | undefined;
  if (isObject(schema['properties'])) return 'object';
  if (schema['items'] !== undefined) return 'array';
  return undefined;
}

/** Whether null is allowed: `nullable` (3.0) or a "null" type (3.1). */
export const nullable = (schema: Schema): boolean =>
  schema['nullable'] === true || (Array.isArray(schema['type']) && schema['type'].includes('null')) || schema['type'] === 'null';

/** The alternatives of a `oneOf` or `anyOf`, if any. */
export const alternatives = (schema: Schema): unknown[] | undefined =>
  Array.isArray(schema['oneOf']) ? schema['oneOf'] : Array.isArray(schema['anyOf']) ? schema['anyOf'] : undefined;

/** A member's schema by name (of a flattened object schema). */
export const propertiesOf = (schema: Schema): Schema => (isObject(schema['properties']) ? schema['properties'] : {});
