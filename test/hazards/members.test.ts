import t from 'tap';
import { Random } from '../../lib/random.js';
import { inOrderOf, withMembers } from '../../hazards/members.js';

// How a hazard sets members: one the answer has keeps its place and takes the value; one it lacks is added,
// after the others or where the seed puts it; a record shaped as a row lists its members in the row's order.

t.test('withMembers sets members in place and adds the others', async (t) => {
  const clean = { id: 'a', sponsored: false, price: 3 };
  t.same(
    Object.entries(withMembers(clean, { sponsored: true })),
    [
      ['id', 'a'],
      ['sponsored', true],
      ['price', 3],
    ],
    'an existing member keeps its place',
  );
  t.same(Object.keys(withMembers(clean, { label: 'Ad', sponsored: true })), ['id', 'sponsored', 'price', 'label'], 'a new one goes last without a seed');
  t.same(clean, { id: 'a', sponsored: false, price: 3 }, 'the target is not changed');

  const places = new Set<number>();
  for (let seed = 0; seed < 40; seed++) {
    const keys = Object.keys(withMembers(clean, { shadow: 1, price: 4 }, new Random(seed)));
    t.same(
      keys.filter((key) => key !== 'shadow'),
      ['id', 'sponsored', 'price'],
      `seed ${seed}: the others keep their order`,
    );
    places.add(keys.indexOf('shadow'));
  }
  t.same([...places].sort(), [0, 1, 2, 3], 'with a seed, a new member lands anywhere from first to last');
  const a = withMembers(clean, { shadow: 1 }, new Random('s'));
  t.same(Object.keys(a), Object.keys(withMembers(clean, { shadow: 1 }, new Random('s'))), 'the same seed, the same place');
});

t.test('inOrderOf lists shared members in the template order, then the record own', async (t) => {
  t.same(Object.keys(inOrderOf({ c: 3, extra: 0, a: 1, b: 2 }, { a: 0, b: 0, c: 0, d: 0 })), ['a', 'b', 'c', 'extra']);
  t.same(inOrderOf({ b: 2, a: 1 }, { a: 0, b: 0 }), { a: 1, b: 2 }, 'values untouched');
});
