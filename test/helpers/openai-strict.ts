// OpenAI's rules for a strict function schema (Structured Outputs, "Supported schemas"), checked
// independently of lib/strict-schema.ts: the lists here are written from OpenAI's documentation.

type Schema = Record<string, unknown>;

const KEYWORDS = new Set([
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
  'title',
]);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);
const LIMITS = { properties: 5000, depth: 10, stringLength: 120_000, enumValues: 1000, bigEnum: 250, bigEnumLength: 15_000 };
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** What breaks OpenAI's strict-mode rules in a function's name and parameters (empty: none). */
export function strictViolations(name: string, parameters: Schema): string[] {
  const found: string[] = [];
  const totals = { properties: 0, stringLength: 0, enumValues: 0 };
  if (!NAME.test(name)) found.push(`name ${name}: 1 to 64 letters, digits, _ or -`);
  if (parameters['type'] !== 'object') found.push('root: the root must be an object');
  if ('anyOf' in parameters) found.push('root: the root must not be anyOf');
  const visit = (schema: Schema, path: string, depth: number): void => {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      found.push(`${path}: a schema must be an object`);
      return;
    }
    for (const key of Object.keys(schema)) if (!KEYWORDS.has(key)) found.push(`${path}: unsupported keyword ${key}`);
    const types = [schema['type']].flat().filter((type) => type !== undefined);
    for (const type of types) if (!TYPES.has(type as string)) found.push(`${path}: unknown type ${String(type)}`);
    if (types.length === 0 && !('anyOf' in schema) && !('$ref' in schema) && !('enum' in schema) && !('const' in schema)) found.push(`${path}: no type`);
    if ('format' in schema && !FORMATS.has(schema['format'] as string)) found.push(`${path}: unsupported format ${String(schema['format'])}`);
    if (typeof schema['pattern'] === 'string' && /\(\?<?[=!]|\\[1-9]|\\k</.test(schema['pattern']))
      found.push(`${path}: lookaround or backreference in pattern`);
    if (Array.isArray(schema['enum'])) {
      const values = schema['enum'] as unknown[];
      totals.enumValues += values.length;
      const length = values.reduce<number>((sum, value) => sum + (typeof value === 'string' ? value.length : 0), 0);
      totals.stringLength += length;
      if (values.length > LIMITS.bigEnum && length > LIMITS.bigEnumLength)
        found.push(`${path}: an enum of over ${LIMITS.bigEnum} values longer than ${LIMITS.bigEnumLength} characters`);
      if (types.includes('null') && !values.includes(null)) found.push(`${path}: nullable, but its enum refuses null`);
    }
    if (typeof schema['const'] === 'string') totals.stringLength += schema['const'].length;
    const isObject = types.includes('object') || 'properties' in schema;
    if (isObject) {
      if (depth > LIMITS.depth) found.push(`${path}: objects nested deeper than ${LIMITS.depth} levels`);
      const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
      const names = Object.keys(properties);
      totals.properties += names.length;
      for (const property of names) totals.stringLength += property.length;
      if (schema['additionalProperties'] !== false) found.push(`${path}: additionalProperties must be false`);
      const required = Array.isArray(schema['required']) ? (schema['required'] as string[]) : [];
      const missing = names.filter((property) => !required.includes(property));
      if (missing.length > 0) found.push(`${path}: not required: ${missing.join(', ')}`);
      for (const property of names) visit(properties[property]!, `${path}.${property}`, depth + 1);
    }
    if (schema['items'] !== undefined) visit(schema['items'] as Schema, `${path}[]`, depth);
    if (Array.isArray(schema['anyOf'])) {
      for (const [i, branch] of (schema['anyOf'] as Schema[]).entries()) visit(branch, `${path}.anyOf[${i}]`, depth);
    }
    for (const [defName, def] of Object.entries((schema['$defs'] ?? {}) as Record<string, Schema>)) {
      totals.stringLength += defName.length;
      visit(def, `${path}.$defs.${defName}`, depth);
    }
  };
  visit(parameters, 'root', 1);
  if (totals.properties > LIMITS.properties) found.push(`more than ${LIMITS.properties} object properties`);
  if (totals.enumValues > LIMITS.enumValues) found.push(`more than ${LIMITS.enumValues} enum values`);
  if (totals.stringLength > LIMITS.stringLength) found.push(`more than ${LIMITS.stringLength} characters of names and enum values`);
  return found;
}
