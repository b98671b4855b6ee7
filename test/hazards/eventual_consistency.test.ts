import t from 'tap';
import type { JournalEntry } from '../helpers/hazards.js';
import { findOrder } from '../helpers/retail.js';
import { findReservation } from '../helpers/airline.js';
import { startServer } from '../helpers/server.js';

const pending = findOrder((o) => o.status === 'pending');
const address = { address1: '9 Disk Lane', address2: '', city: 'Reno', state: 'NV', country: 'USA', zip: '89501' };
const reservation = findReservation((r) => r.status !== 'cancelled');

t.test('after a write, the next reads of its record show it as it was; then they catch up', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARDS: 'eventual_consistency', HAZARD_SEED: '1' } });
  const written = await server.call('retail', 'modify_pending_order_address', { order_id: pending.order_id, ...address }, 'e');
  t.match(written.body.address, address, "the write's own answer is right");
  const reads = [];
  for (let i = 0; i < 3; i++) reads.push((await server.call('retail', 'get_order_details', { order_id: pending.order_id }, 'e')).body.address);
  t.same(reads.slice(0, 2), [pending.address, pending.address], 'two reads lag behind');
  t.match(reads[2], address, 'the third has caught up');
  const other = findOrder((o) => o.order_id !== pending.order_id && o.status === 'pending');
  t.same((await server.call('retail', 'get_order_details', { order_id: other.order_id }, 'e')).body.address, other.address, 'other records are read fresh');
  const journal = await server.journal<JournalEntry>('e');
  t.match(journal[0]!.hazards, [{ kind: 'eventual_consistency', family: 'execution', record: pending.order_id, lagging_reads: 2 }]);
  t.match(journal[1]!.hazards, [{ kind: 'eventual_consistency', replica: 'lagging', record: pending.order_id }]);
  t.same(journal[3]!.hazards, [], 'a fresh read carries nothing');
  t.match((await server.state('e'))['retail'].orders[pending.order_id].address, address, 'the write did happen');
});

t.test('a failed write leaves nothing lagging', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARDS: 'eventual_consistency', HAZARD_SEED: '1' } });
  const delivered = findOrder((o) => o.status === 'delivered');
  t.equal((await server.call('retail', 'modify_pending_order_address', { order_id: delivered.order_id, ...address }, 'f')).status, 409);
  await server.call('retail', 'get_order_details', { order_id: delivered.order_id }, 'f');
  t.same(
    (await server.journal<JournalEntry>('f')).flatMap((e) => e.hazards),
    [],
  );
});

t.test('airline: bag counts lag behind update_reservation_baggages', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARDS: 'eventual_consistency', HAZARD_SEED: '1' } });
  const total = reservation.total_baggages + 1;
  const args = { reservation_id: reservation.reservation_id, total_baggages: total, nonfree_baggages: reservation.nonfree_baggages, payment_id: '' };
  const user = (await server.call('airline', 'get_user_details', { user_id: reservation.user_id }, 'b')).body;
  args.payment_id = Object.keys(user.payment_methods).find((id) => user.payment_methods[id].source !== 'certificate') ?? '';
  const written = await server.call('airline', 'update_reservation_baggages', args, 'b');
  t.equal(written.status, 200, written.text);
  t.equal(written.body.total_baggages, total);
  t.equal(
    (await server.call('airline', 'get_reservation_details', { reservation_id: reservation.reservation_id }, 'b')).body.total_baggages,
    reservation.total_baggages,
    'the read lags',
  );
});
