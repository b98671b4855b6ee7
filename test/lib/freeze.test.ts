import t from 'tap';
import { deepFreeze } from '../../lib/freeze.js';

t.test('freezes objects and arrays at every depth, and returns the value', async (t) => {
  const value = { order: { items: [{ price: 1, options: { color: 'red' } }, [2, [3]]], note: null } };
  t.equal(deepFreeze(value), value);
  const item = value.order.items[0] as { options: object };
  const nested = value.order.items[1] as unknown[];
  for (const part of [value, value.order, value.order.items, item, item.options, nested, nested[1]]) t.ok(Object.isFrozen(part));
  t.throws(
    () => {
      (item.options as { color: string }).color = 'blue';
    },
    TypeError,
    'a module is strict: writing to a frozen record throws',
  );
});

t.test('leaves primitives as they are, and stops at a part already frozen', async (t) => {
  for (const primitive of [null, undefined, 0, 'text', true]) t.equal(deepFreeze(primitive), primitive);
  const inner = { open: {} };
  const shared = Object.freeze({ inner });
  deepFreeze({ shared });
  t.notOk(Object.isFrozen(inner), 'what a frozen part holds was frozen with it, or is left to its owner');
});
