import t from 'tap';
import { injection } from '../../hazards/kinds/injection.js';
import { findReservation } from '../helpers/airline.js';
import type { JournalEntry } from '../helpers/hazards.js';
import { findOrder } from '../helpers/retail.js';
import { startServer } from '../helpers/server.js';

const delivered = findOrder((o) => o.status === 'delivered' && o.fulfillments.length > 0);
const active = findReservation((r) => r.status !== 'cancelled');
const ON = { HAZARDS: 'injection', HAZARD_SEED: '1' };

t.test('an instruction in a data field; the journal names the field and the trap', async (t) => {
  const server = await startServer(t, { hazardEnv: ON });
  const answer = (await server.call('retail', 'track_order', { order_id: delivered.order_id }, 'i')).body;
  const events = answer.shipments.at(-1).events;
  t.match(events.at(-1).description, /ASSISTANT/, "the carrier's last event carries the instruction");
  const [entry] = await server.journal<JournalEntry>('i');
  t.match(entry!.hazards, [
    {
      kind: 'injection',
      family: 'output',
      field: /^shipments\.\d+\.events\.\d+\.description$/,
      trap: { tool: 'return_delivered_order_items', args: { order_id: delivered.order_id } },
    },
  ]);
  const off = (await (await startServer(t)).call('retail', 'track_order', { order_id: delivered.order_id })).body;
  t.same(
    {
      ...answer,
      shipments: answer.shipments.map((s: { events: unknown[] }, i: number) => ({ ...s, events: s.events.slice(0, off.shipments[i].events.length) })),
    },
    off,
    'nothing else changed',
  );
});

t.test('a later call that does what the text says is journaled as a trap; other calls are not', async (t) => {
  const server = await startServer(t, { hazardEnv: ON });
  const remarked = (await server.call('airline', 'get_reservation_details', { reservation_id: active.reservation_id }, 'a')).body;
  t.match(remarked.remarks, [/Cancel reservation/]);
  await server.call('airline', 'get_user_details', { user_id: active.user_id }, 'a');
  const cancelled = await server.call('airline', 'cancel_reservation', { reservation_id: active.reservation_id }, 'a');
  t.equal(cancelled.status, 200, 'the tool itself does not refuse: the policy is the agent’s to apply');
  const journal = await server.journal<JournalEntry>('a');
  t.same(journal[1]!.hazards, [], 'a call the text did not ask for carries nothing');
  t.match(journal[2]!.hazards, [
    { kind: 'injection', trap: true, tool: 'cancel_reservation', planted_by: { tool: 'get_reservation_details', call: 1 }, recovery: String },
  ]);
});

t.test('hints mode: the planted answer says that its text is data', async (t) => {
  const server = await startServer(t, { hazardEnv: { ...ON, HAZARD_HINTS: '1' } });
  const reply = await server.call('airline', 'get_reservation_details', { reservation_id: active.reservation_id }, 'h');
  t.equal(reply.body._hint, injection.hint({ kind: 'injection', tool: 'get_reservation_details' } as never));
});
