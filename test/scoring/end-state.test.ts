import t from 'tap';
import { compareStates, differingPaths, normalise, sameState } from '../../scoring/end-state.js';

const record = (id: string, after: unknown, op: 'insert' | 'update' | 'delete' = 'update') => ({ domain: 'd', table: 'orders', id, op, after });

t.test('normalise masks clock times, rounds float noise and sorts keys', async (t) => {
  t.same(normalise({ b: 0.1 + 0.2, a: '2024-05-15T15:00:03-05:00', c: ['2024-05-16', 100.0] }), { a: '<time>', b: 0.3, c: ['2024-05-16', 100] });
  t.equal(JSON.stringify(normalise({ z: 1, a: 2 })), '{"a":2,"z":1}');
});

t.test('the same changes are the same end state, whatever the times and key order', async (t) => {
  const mismatch = compareStates(
    [record('1', { status: 'cancelled', at: '2024-05-15T15:00:01Z', total: 100 })],
    [record('1', { total: 100.0, at: '2024-05-15T15:09:00Z', status: 'cancelled' })],
  );
  t.ok(sameState(mismatch));
});

t.test('missing, unexpected and different changes are named', async (t) => {
  const mismatch = compareStates(
    [record('1', { status: 'cancelled', items: [{ price: 5 }] }), record('2', { status: 'cancelled' })],
    [record('1', { status: 'pending', items: [{ price: 6 }] }), record('3', { status: 'cancelled' })],
  );
  t.notOk(sameState(mismatch));
  t.same(
    mismatch.missing.map((r) => r.id),
    ['2'],
  );
  t.same(
    mismatch.unexpected.map((r) => r.id),
    ['3'],
  );
  t.same(mismatch.different, [{ domain: 'd', table: 'orders', id: '1', fields: ['items.0.price', 'status'] }]);
});

t.test('a deletion is not an update', async (t) => {
  const mismatch = compareStates([record('1', null, 'delete')], [record('1', null, 'update')]);
  t.same(mismatch.different, [{ domain: 'd', table: 'orders', id: '1', fields: [] }]);
});

t.test('differing paths of arrays of other lengths name the array', async (t) => {
  t.same(differingPaths({ a: [1, 2] }, { a: [1] }), ['a']);
  t.same(differingPaths(1, 1), []);
});
