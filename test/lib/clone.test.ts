import fc from 'fast-check';
import t from 'tap';
import { cloneJson } from '../../lib/clone.js';

t.test('a copy equal to structuredClone of any JSON value, sharing nothing with it', async (t) => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      const copy = cloneJson(value);
      t.same(copy, structuredClone(value));
      return typeof value !== 'object' || value === null || copy !== value;
    }),
    { numRuns: 300 },
  );
  const record = { items: [{ price: 1 }], address: { city: 'Reno' } };
  const copy = cloneJson(record);
  copy.items[0]!.price = 2;
  copy.address.city = 'Boise';
  t.same(record, { items: [{ price: 1 }], address: { city: 'Reno' } }, 'the original is untouched');
});

t.test('an own "__proto__" key stays an own key', async (t) => {
  const value = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
  const copy = cloneJson(value);
  t.ok(Object.hasOwn(copy, '__proto__'));
  t.equal(Object.getPrototypeOf(copy), Object.prototype);
  t.equal(({} as { polluted?: boolean }).polluted, undefined);
});
