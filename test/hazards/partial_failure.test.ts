import t from 'tap';
import { findReservation } from '../helpers/airline.js';
import type { JournalEntry } from '../helpers/hazards.js';
import { startServer } from '../helpers/server.js';
import { smartHomeFixture } from '../domains/smart-home/helpers.js';
import { inRequestOrder } from '../../hazards/request-order.js';

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
  t.not(same.body.errors, true, 'no error');
  t.notOk(
    (same.body.ticketing ?? []).some((s: { status: string }) => s.status === 'failed'),
    'no passenger failed',
  );
  t.same((await server.journal<JournalEntry>('n'))[0]!.hazards, []);
});

t.test('the failed target keeps its place: per-target results come in request order, as in clean answers', async (t) => {
  const lit = Object.values(smartHomeFixture().devices).filter((d) => d.online && d.state.power === 'on' && d.capabilities.includes('power'));
  const home = lit.find((d) => lit.filter((o) => o.home_id === d.home_id).length >= 4)!.home_id;
  const endpoints = lit.filter((d) => d.home_id === home).map((d) => d.endpoint);
  const server = await startServer(t, { hazardEnv: { HAZARDS: 'partial_failure', HAZARD__PARTIAL_FAILURE: '1', HAZARD_SEED: '2' } });
  const places = new Set<number>();
  for (const id of ['o1', 'o2', 'o3', 'o4', 'o5', 'o6']) {
    const reply = await server.call('smart-home', 'power_off', { endpoints }, id);
    const results = reply.body.results as { endpoint: string; status: string }[];
    t.same(
      results.map((r) => r.endpoint),
      endpoints,
      `${id}: one result per endpoint, in request order`,
    );
    const failed = results.flatMap((r, i) => (r.status === 'failed' ? [i] : []));
    t.equal(failed.length, 1, `${id}: one device failed`);
    places.add(failed[0]!);
  }
  t.ok(places.size > 1 && [...places].some((i) => i < endpoints.length - 1), 'the failed device is not always last');
});

t.test('inRequestOrder: rows naming the request targets follow the request; other lists and answers are unchanged', async (t) => {
  const requested = { endpoints: ['c', 'a', 'b'], note: 'x' };
  const rows = [{ endpoint: 'a' }, { endpoint: 'b' }, { endpoint: 'c', status: 'failed' }];
  t.same(inRequestOrder({ results: rows, failed: 1 }, requested), { results: [rows[2], rows[0], rows[1]], failed: 1 });
  t.same(inRequestOrder(rows, requested), [rows[2], rows[0], rows[1]], 'an answer that is the list itself');
  const other = [{ endpoint: 'a' }, { endpoint: 'z' }];
  t.same(inRequestOrder({ results: other }, requested), { results: other }, 'rows naming something else stay as they are');
  t.same(inRequestOrder({ results: rows }, { passengers: [{ id: 'c' }, { id: 'a' }] }), { results: rows }, 'a request without a list of ids');
});
