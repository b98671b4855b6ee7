import { isObject } from '../../../lib/object.js';
import type { Random } from '../../../lib/random.js';
import { generate } from './generate.js';
import { cursorFor, MORE_MEMBER, NEXT_MEMBER, type Page } from './paging.js';
import { alternatives, flatten, propertiesOf, type Schema, typeOf } from './schema.js';

/** The response an operation declares for a status class: its status, JSON schema and example (if any). */
export interface Declared {
  status: number;
  schema: unknown;
  example: unknown;
}

/** The declared success answer: `preferred` when the document has it, else its first 2xx, else 200 with no schema. */
export function declaredAnswer(document: unknown, operation: Record<string, unknown>, preferred: number): Declared {
  const responses = isObject(operation['responses']) ? operation['responses'] : {};
  const codes = Object.keys(responses).filter((code) => /^2\d\d$/.test(code));
  const code = codes.includes(String(preferred)) ? String(preferred) : (codes.sort()[0] ?? (responses['default'] ? 'default' : undefined));
  const status = code === undefined || code === 'default' ? (code === 'default' ? preferred : 200) : Number(code);
  const response = code === undefined ? undefined : flatten(document, responses[code]);
  const content = isObject(response?.['content']) ? response['content'] : {};
  const json = Object.entries(content).find(([type]) => /json/i.test(type))?.[1];
  if (!isObject(json)) return { status, schema: undefined, example: undefined };
  return { status, schema: json['schema'], example: mediaExample(document, json) };
}

/** A media type's example: `example`, or the first of `examples` (each `{value}` or a `$ref` to one). */
export function mediaExample(document: unknown, media: Record<string, unknown>): unknown {
  if (media['example'] !== undefined) return media['example'];
  if (!isObject(media['examples'])) return undefined;
  const first = flatten(document, Object.values(media['examples'])[0]);
  return first['value'];
}

/** A success answer's body: the document's example when there is one, otherwise generated from its schema. */
export const exampleOrGenerated = (document: unknown, declared: Declared, random: Random): unknown =>
  declared.example !== undefined ? structuredClone(declared.example) : declared.schema === undefined ? null : generate(document, declared.schema, random);

/** The schema of one record in a list answer: the array's items, or those of the object's first array member. */
export function itemSchema(document: unknown, raw: unknown): unknown {
  const schema = flatten(document, raw);
  if (typeOf(schema) === 'array') return holdsRecords(document, schema) ? schema['items'] : undefined;
  const member = listMember(document, schema);
  return member === undefined ? undefined : flatten(document, propertiesOf(schema)[member])['items'];
}

/** The name of an object answer's array member that carries the list (`items`, `data`…). */
export function listMember(document: unknown, schema: Schema): string | undefined {
  return Object.entries(propertiesOf(schema)).find(([, member]) => holdsRecords(document, flatten(document, member)))?.[0];
}

/** An array of records: objects (or items of no stated type), not of strings or numbers (`tags`, `photoUrls`). */
function holdsRecords(document: unknown, schema: Schema): boolean {
  if (typeOf(schema) !== 'array') return false;
  const items = flatten(document, schema['items']);
  const type = typeOf(items);
  return (
    type === 'object' ||
    (type === undefined && alternatives(items) === undefined) ||
    (alternatives(items)?.every((one) => typeOf(flatten(document, one)) === 'object') ?? false)
  );
}

/**
 * A page of the records as the list answer's schema wants it: the array itself, or an object with them in its array
 * member, its total set to all the records' count, and its next-page members (`next_cursor`, `has_more`) set.
 */
export function listAnswer(document: unknown, raw: unknown, records: unknown[], random: Random, page: Page = { start: 0 }): unknown {
  const end = page.size === undefined ? records.length : Math.min(records.length, page.start + page.size);
  const items = records.slice(page.start, end);
  const more = end < records.length;
  const schema = flatten(document, raw);
  if (raw === undefined || typeOf(schema) === 'array') return items;
  const member = listMember(document, schema);
  if (member === undefined) return items;
  const envelope = generate(document, schema, random) as Record<string, unknown>;
  envelope[member] = items;
  for (const name of ['total', 'count', 'total_count', 'totalCount']) if (typeof envelope[name] === 'number') envelope[name] = records.length;
  for (const name of Object.keys(propertiesOf(schema))) {
    if (NEXT_MEMBER.test(name)) envelope[name] = more ? cursorFor(end) : null;
    else if (MORE_MEMBER.test(name)) envelope[name] = more;
  }
  return envelope;
}

/** A value without the members its schema marks `writeOnly`, at any depth: what an answer may show. */
export function withoutWriteOnly(document: unknown, raw: unknown, value: unknown, depth = 0): unknown {
  if (depth > 16 || raw === undefined) return value;
  const schema = flatten(document, raw);
  if (Array.isArray(value)) return value.map((item) => withoutWriteOnly(document, schema['items'], item, depth + 1));
  if (!isObject(value)) return value;
  const properties = propertiesOf(schema);
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value)) {
    const property = properties[name];
    if (property !== undefined && flatten(document, property)['writeOnly'] === true) continue;
    out[name] = withoutWriteOnly(document, property, member, depth + 1);
  }
  return out;
}

/** A request body without the members its schema marks `readOnly`: the server sets those. */
export function withoutReadOnly(document: unknown, raw: unknown, value: Record<string, unknown>): Record<string, unknown> {
  const properties = propertiesOf(flatten(document, raw));
  return Object.fromEntries(Object.entries(value).filter(([name]) => flatten(document, properties[name])['readOnly'] !== true));
}
