import t from 'tap';
import { findReservation } from '../helpers/airline.js';
import type { JournalEntry } from '../helpers/hazards.js';
import { startServer } from '../helpers/server.js';

const group = findReservation((r) => r.status !== 'cancelled' && r.passengers.length >= 2);
const renamed = group.passengers.map((p, i) => (i < 2 ? { ...p, last_name: `${p.last_name}-Smith` } : p));
const args = { reservation_id: group.reservation_id, passengers: renamed };
const ON = { HAZARDS: 'partial_failure', HAZARD_SEED: '1' };

t.test('one changed passenger fails; the answer says so per passenger; the others are applied', async (t) => {
  const server = await startServer(t, { hazardEnv: ON });
  const reply = await server.call('airline', 'update_reservation_passengers', args, 'p');
  t.equal(reply.status, 200, 'a success status, as multi-target APIs answer');
  t.equal(reply.body.errors, true);
  const failed = reply.body.ticketing.filter((s: { status: string }) => s.status === 'failed');
  t.equal(failed.length, 1, 'one passenger failed');
  const index = failed[0].passenger as number;
  t.ok(index < 2, 'a passenger that was to change');
  const stored = (await server.state('p'))['airline'].reservations[group.reservation_id].passengers;
  t.same(stored[index], group.passengers[index], 'the failed one keeps the old details');
  t.same(stored[1 - index], renamed[1 - index], 'the other is changed');
  t.match((await server.journal<JournalEntry>('p'))[0]!.hazards, [{ kind: 'partial_failure', failed: [String(index)], recovery: /retry|repeat/ }]);
});

t.test('recovery: retrying the call until every passenger is updated gives the full change', async (t) => {
  const server = await startServer(t, { hazardEnv: ON });
  let reply = await server.call('airline', 'update_reservation_passengers', args, 'r');
  for (let tries = 0; reply.body.errors === true && tries < 4; tries++) reply = await server.call('airline', 'update_reservation_passengers', args, 'r');
  t.notOk(reply.body.errors);
  t.same(
    (await server.state('r'))['airline'].reservations[group.reservation_id].passengers,
    renamed.map(({ first_name, last_name, dob }) => ({ first_name, last_name, dob })),
  );
});

t.test('nothing to split: an unchanged list, or one passenger, passes untouched', async (t) => {
  const server = await startServer(t, { hazardEnv: ON });
  const same = await server.call('airline', 'update_reservation_passengers', { reservation_id: group.reservation_id, passengers: group.passengers }, 'n');
  t.notOk('ticketing' in same.body);
  t.same((await server.journal<JournalEntry>('n'))[0]!.hazards, []);
});
