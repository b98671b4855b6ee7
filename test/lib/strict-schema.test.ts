import t from 'tap';
import { z } from 'zod';
import { jsonSchemaOf } from '../../lib/json-schema.js';
import { optionalNullsRemover } from '../../lib/optional-nulls.js';
import { strictSchemaOf } from '../../lib/strict-schema.js';
import { strictViolations } from '../helpers/openai-strict.js';

const input = z.strictObject({
  id: z.string().min(3).max(9).describe('The id.'),
  note: z.string().nullable().optional().describe('Null clears the note.'),
  size: z.enum(['s', 'm']).optional(),
  count: z.int().min(1).default(2).describe('How many.'),
  when: z
    .string()
    .regex(/^(?=\d)\d{4}$/)
    .optional(),
  channel: z.union([z.int(), z.string()]).optional(),
  lines: z.array(z.strictObject({ sku: z.string(), gift: z.boolean().optional() })).min(1),
});
const declared = jsonSchemaOf(input, 'input');

t.test('the strict form of a schema', async (t) => {
  const before = structuredClone(declared);
  const strict = strictSchemaOf(declared) as Record<string, any>;
  t.strictSame(declared, before, 'the schema given is left as it was');
  t.strictSame(strictViolations('tool', strict), [], 'strict mode takes it');
  t.ok(strictViolations('tool', declared).length > 0, 'and refuses the schema as declared');
  const p = strict['properties'];
  t.strictSame(strict['required'], Object.keys(p), 'every property required');
  t.same(p.id, { type: 'string', description: 'The id. At least 3 characters; at most 9 characters.' }, 'lengths in words');
  t.same(p.note.type, ['string', 'null'], 'a schema that takes null is left as it is');
  t.same(p.size, { type: ['string', 'null'], enum: ['s', 'm', null] }, 'an optional enum takes null');
  t.same(p.count.type, ['integer', 'null']);
  t.match(p.count.description, /^How many\. Default: 2\.$/, 'a default in words');
  t.match(p.when.description, /Matches the pattern/, 'a lookahead pattern in words');
  t.same(p.channel.anyOf.at(-1), { type: 'null' }, 'a union takes null as one more branch');
  t.same(p.lines.items.properties.gift.type, ['boolean', 'null'], 'at depth');
  t.strictSame(p.lines.items.required, ['sku', 'gift']);
  t.throws(() => strictSchemaOf(jsonSchemaOf(z.strictObject({ tags: z.record(z.string(), z.string()) }), 'input')), /map/, 'a map has no strict form');
  t.throws(() => strictSchemaOf({ anyOf: [] }), /root/);
});

t.test('nulls that stand for an omitted optional argument are removed, at every depth', async (t) => {
  const remove = optionalNullsRemover(declared);
  const plain = { id: 'abc', lines: [{ sku: 'x' }] };
  t.equal(remove(plain), plain, 'nothing to remove: the same object');
  const sent = {
    id: 'abc',
    note: null,
    size: null,
    count: null,
    when: null,
    channel: null,
    lines: [
      { sku: 'x', gift: null },
      { sku: 'y', gift: true },
    ],
  };
  const copy = structuredClone(sent);
  t.strictSame(remove(sent), { id: 'abc', note: null, lines: [{ sku: 'x' }, { sku: 'y', gift: true }] }, 'a null the schema takes keeps its meaning');
  t.strictSame(sent, copy, 'the arguments as sent are left as they were');
  t.strictSame(remove({ id: null, lines: null }), { id: null, lines: null }, 'a required field keeps its null, for validation to refuse');
  const inherited = Object.create({ size: null }) as object;
  t.equal(remove(inherited), inherited, 'only own members count');
  t.equal(remove('text'), 'text');
});
