import t from 'tap';
import { clockPathsOf, compareStates, differingPaths, masked, normalise, recordKey, sameState } from '../../scoring/end-state.js';

const record = (id: string, after: unknown, op: 'insert' | 'update' | 'delete' = 'update') => ({ domain: 'd', table: 'orders', id, op, after });

t.test('normalise rounds float noise and sorts keys, and keeps every value', async (t) => {
  t.same(normalise({ b: 0.1 + 0.2, a: '2024-05-15T15:00:03-05:00', c: ['2024-05-16', 100.0] }), {
    a: '2024-05-15T15:00:03-05:00',
    b: 0.3,
    c: ['2024-05-16', 100],
  });
  t.equal(JSON.stringify(normalise({ z: 1, a: 2 })), '{"a":2,"z":1}');
});

t.test('only the values the clock wrote are left out: the paths that differ between two reference runs', async (t) => {
  const first = [record('1', { status: 'cancelled', at: '2024-05-15T15:00:01Z', alarm: '2024-05-16T06:30', log: [{ at: 'x' }] })];
  const second = [record('1', { status: 'cancelled', at: '2024-05-15T15:01:09Z', alarm: '2024-05-16T06:30', log: [{ at: 'y' }] })];
  const clock = clockPathsOf(first, second);
  t.same([...clock], [[recordKey(first[0]!), ['at', 'log.0.at']]]);
  const later = [record('1', { alarm: '2024-05-16T06:30', at: '2024-05-15T15:09:00Z', status: 'cancelled', log: [{ at: 'z' }] })];
  t.ok(sameState(compareStates(first, later, clock)), 'a time the clock wrote differs, key order differs: the same end state');
  const wrongAlarm = [record('1', { status: 'cancelled', at: '2024-05-15T15:09:00Z', alarm: '2024-05-18T23:45', log: [{ at: 'z' }] })];
  t.same(
    compareStates(first, wrongAlarm, clock).different,
    [{ domain: 'd', table: 'orders', id: '1', fields: ['alarm'] }],
    'a time the agent chose is compared',
  );
  t.same(masked({ a: [{ b: 1 }, { b: 2 }] }, ['a.1.b', 'z.q']), { a: [{ b: 1 }, { b: '<clock>' }] }, 'a path that is not there is left alone');
  t.same(masked(5, ['x']), 5);
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
