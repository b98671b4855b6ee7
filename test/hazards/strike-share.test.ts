import t from 'tap';
import { type JournalEntry, payableCart } from '../helpers/hazards.js';
import { findOrder } from '../helpers/retail.js';
import { startServer } from '../helpers/server.js';

// Several kinds that end a call, all on one tool at rate 1: each gets its share of the hits (a seeded draw
// picks the one that strikes), where the first in stage order used to take them all.

const shipped = findOrder((o) => o.fulfillments.length > 0);
const { cart } = payableCart();
const CALLS = 60;

const hitsOf = (journal: JournalEntry[]) => {
  const hits: Record<string, number> = {};
  for (const entry of journal) for (const event of entry.hazards) hits[event.kind] = (hits[event.kind] ?? 0) + 1;
  return hits;
};

t.test('on a read, transient failures, latency and transport faults each strike', async (t) => {
  const server = await startServer(t, {
    hazardEnv: {
      HAZARD__TRANSIENT_FAILURE__TRACK_ORDER: 'on',
      HAZARD__LATENCY__TRACK_ORDER: 'on',
      HAZARD__TRANSPORT_FAULT__TRACK_ORDER: 'on',
      HAZARD_MAX_CONSECUTIVE: '99',
    },
    sleep: async () => {},
  });
  for (let i = 0; i < CALLS; i++) await server.attempt('retail', 'track_order', { order_id: shipped.order_id }, 'share');
  const journal = await server.journal<JournalEntry>('share');
  const hits = hitsOf(journal);
  for (const kind of ['transient_failure', 'latency', 'transport_fault']) t.ok((hits[kind] ?? 0) >= 5, `${kind} strikes ${hits[kind] ?? 0} of ${CALLS} calls`);
  t.ok(
    journal.every((entry) => entry.hazards.length === 1),
    'one kind strikes each call',
  );
  const summary = (await server.request('GET', '/sessions/share')).body as { hazard_hits: Record<string, number> };
  t.same(summary.hazard_hits, hits, 'the session summary counts the hits per kind as the journal has them');

  await server.newSession({ id: 'share-again' });
  for (let i = 0; i < CALLS; i++) await server.attempt('retail', 'track_order', { order_id: shipped.order_id }, 'share-again');
  const again = await server.journal<JournalEntry>('share-again');
  t.not(
    JSON.stringify(again.map((entry) => entry.hazards.map((event) => event.kind))),
    JSON.stringify(journal.map((entry) => entry.hazards.map((event) => event.kind))),
    'another session draws its own schedule',
  );
});

t.test('the same seed picks the same kinds, call by call', async (t) => {
  const server = await startServer(t, {
    hazardEnv: { HAZARD__TRANSIENT_FAILURE__TRACK_ORDER: 'on', HAZARD__LATENCY__TRACK_ORDER: 'on', HAZARD_MAX_CONSECUTIVE: '99' },
    sleep: async () => {},
  });
  const schedules: string[] = [];
  for (const id of ['a', 'b']) {
    await server.newSession({ id, seed: '7' });
    for (let i = 0; i < 20; i++) await server.attempt('retail', 'track_order', { order_id: shipped.order_id }, id);
    schedules.push(JSON.stringify((await server.journal<JournalEntry>(id)).map((entry) => entry.hazards.map((event) => event.kind))));
  }
  t.equal(schedules[0], schedules[1], 'two sessions with one seed meet the same kinds on the same calls');
  t.match(schedules[0], /latency/, 'latency strikes');
  t.match(schedules[0], /transient_failure/, 'and transient failures too');
});

t.test('a kind that does not end the call still acts beside one that does', async (t) => {
  const server = await startServer(t, {
    hazardEnv: { HAZARD__TRANSIENT_FAILURE__VIEW_CART: '0.5', HAZARD__STALE_DATA__VIEW_CART: 'on', HAZARD_MAX_CONSECUTIVE: '99' },
    sleep: async () => {},
  });
  for (let i = 0; i < 20; i++) await server.attempt('retail', 'view_cart', { user_id: cart.user_id }, 'mixed');
  const hits = hitsOf(await server.journal<JournalEntry>('mixed'));
  t.ok((hits['transient_failure'] ?? 0) > 0, `transient failures strike (${hits['transient_failure']})`);
  t.ok((hits['stale_data'] ?? 0) > 0, `and stale data reshapes the other answers (${hits['stale_data']})`);
});
