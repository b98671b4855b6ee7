import t from 'tap';
import { JsonTextError, MAX_JSON_DEPTH, parseJsonText } from '../../lib/json.js';

t.test('JSON from outside: bounded nesting, no prototype keys, reasons kept', async (t) => {
  const nested = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth);
  t.same(parseJsonText(`{"a": ${nested(MAX_JSON_DEPTH - 1)}}`), { a: JSON.parse(nested(MAX_JSON_DEPTH - 1)) }, 'the limit itself is accepted');
  t.throws(() => parseJsonText(`{"a": ${nested(MAX_JSON_DEPTH)}}`), new JsonTextError('too_deep', `nested deeper than ${MAX_JSON_DEPTH} levels`));
  t.throws(() => parseJsonText(nested(100_000)), { reason: 'too_deep', message: /deeper/ }, 'very deep text stops early, without recursion');
  t.same(parseJsonText(`{"s": "${'['.repeat(500)}\\"{"}`), { s: `${'['.repeat(500)}"{` }, 'brackets and escaped quotes inside strings do not count');
  t.same(parseJsonText('{"a": {"b": 1}, "c": [1, {"d": []}]}'), { a: { b: 1 }, c: [1, { d: [] }] });
  t.throws(() => parseJsonText('{"__proto__": {"x": 1}}'), { reason: 'forbidden_key', message: /__proto__/ });
  t.throws(() => parseJsonText('{"a": {"constructor": {"prototype": {}}}}'), { reason: 'forbidden_key', message: /__proto__/ });
  t.throws(() => parseJsonText('{"a": '), { reason: 'syntax', message: /JSON/ });
  t.same(parseJsonText('{"constructor": "fine"}'), { constructor: 'fine' }, 'a plain constructor key is data');
  const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  t.equal(JSON.stringify(parseJsonText(objects(MAX_JSON_DEPTH))).length, objects(MAX_JSON_DEPTH).length, 'objects count like arrays: the limit passes');
  t.throws(() => parseJsonText(objects(MAX_JSON_DEPTH + 1)), { reason: 'too_deep', message: /deeper/ }, 'one more is refused');
});
