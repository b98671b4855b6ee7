import t from 'tap';
import { REJECTED_ARGS_KEPT } from '../../server/core/journal-entry.js';
import { startServer } from '../helpers/server.js';
import { findOrder } from '../helpers/retail.js';

const order = findOrder((o) => o.status === 'pending');

t.test('rejected arguments are kept up to a bound, with a marker saying they were cut', async (t) => {
  const server = await startServer(t);
  const huge = { order_id: 'x'.repeat(100_000), reason: 'no longer needed', extra: ['y'.repeat(50_000)] };
  const reply = await server.call('retail', 'cancel_pending_order', huge, 'cut');
  t.equal(reply.status, 400);
  const [entry] = await server.journal('cut');
  const sent = JSON.stringify(huge);
  t.match(entry.args_truncated, { bytes: Buffer.byteLength(sent), kept: REJECTED_ARGS_KEPT }, 'says how much was sent and how much is kept');
  t.equal(entry.args, sent.slice(0, REJECTED_ARGS_KEPT), 'keeps the start of the JSON text');

  const small = { order_id: 'nope', reason: 'no longer needed' };
  await server.call('retail', 'cancel_pending_order', small, 'cut');
  const [, second] = await server.journal('cut');
  t.same(second.args, small, 'small rejected arguments are kept whole');
  t.notOk('args_truncated' in second);
});

t.test('journal memory across sessions is bounded; idle sessions lose their oldest entries first', async (t) => {
  let now = 0;
  const limit = 60_000;
  const server = await startServer(t, { sessions: { journalMemory: limit, now: () => now } });
  const read = (session: string) => server.call('retail', 'get_order_details', { order_id: order.order_id }, session);
  for (const session of ['old', 'middle', 'recent']) {
    now += 1000;
    for (let i = 0; i < 10; i++) await read(session);
  }
  type Kept = { entries: number; dropped: number; bytes: number };
  const summaries = async () => {
    const all = (await server.request('GET', '/sessions')).body as { id: string; journal: Kept }[];
    const of = (id: string) => all.find((s) => s.id === id)!.journal;
    return { old: of('old'), middle: of('middle'), recent: of('recent') };
  };
  const before = await summaries();
  const perCall = before.old.bytes / 10;
  t.ok(before.old.bytes + before.middle.bytes + before.recent.bytes <= limit, 'within the budget so far');

  now += 1000;
  const needed = Math.ceil((limit - (before.old.bytes + before.middle.bytes + before.recent.bytes)) / perCall) + 1;
  for (let i = 0; i < needed; i++) await read('recent');
  const after = await summaries();
  const total = after.old.bytes + after.middle.bytes + after.recent.bytes;
  t.ok(total <= limit, `the total (${total}) stays within JOURNAL_MEMORY (${limit})`);
  t.ok(after.old.dropped > 0, 'the session idle the longest lost entries');
  t.equal(after.recent.dropped, 0, 'the busy session kept all of its own');
  t.equal(after.middle.dropped, 0, 'a more recent idle session is reached only after the older one');
  const journal = await server.journal('old');
  t.equal(journal.length, after.old.entries, 'the journal shows what is kept');
  t.equal(journal.at(-1).seq, 10, 'the newest entries are the ones kept');
  t.match((await server.request('GET', '/health')).body, { journal: { bytes: total, limit } }, '/health reports the budget');
});

t.test('a journal shorter than a fault streak does not change the hazard schedule', async (t) => {
  // With max_consecutive 3, a retry gets through on the 4th call, whatever JOURNAL_LIMIT keeps.
  const pattern = async (journalLimit: number) => {
    const server = await startServer(t, {
      sessions: { journalLimit },
      hazardEnv: { HAZARD__TRANSIENT_FAILURE__GET_ORDER_DETAILS: 'on', HAZARD_MAX_CONSECUTIVE: '3' },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await server.call('retail', 'get_order_details', { order_id: order.order_id }, 'streak')).status);
    return statuses.map((status) => (status === 200 ? 'ok' : 'fault'));
  };
  const full = await pattern(10_000);
  t.same(full, ['fault', 'fault', 'fault', 'ok', 'fault', 'fault', 'fault', 'ok']);
  t.same(await pattern(1), full, 'JOURNAL_LIMIT=1 gives the same schedule');
});

t.test('a write that leaves a record byte-identical does not list it; the diff agrees with the journal', async (t) => {
  const server = await startServer(t);
  // Cancelling an order paid without a gift card edits the user (for refunds to gift cards) but changes nothing in it.
  const paid = findOrder(
    (o, user) => o.status === 'pending' && o.payment_history.every((p) => user.payment_methods[p.payment_method_id]?.source !== 'gift_card'),
  );
  const reply = await server.call('retail', 'cancel_pending_order', { order_id: paid.order_id, reason: 'no longer needed' }, 'same');
  t.equal(reply.status, 200);
  const [entry] = await server.journal('same');
  t.same(
    entry.changes.map((change: { table: string; id: string }) => `${change.table}/${change.id}`),
    [`orders/${paid.order_id}`],
    'only the order is listed, not its unchanged user',
  );
  const diff = (await server.request('GET', '/sessions/same/diff')).body as Record<string, { table: string; id: string }[]>;
  t.same(
    Object.values(diff)
      .flat()
      .map((record) => `${record.table}/${record.id}`),
    [`orders/${paid.order_id}`],
    'the diff names the same record',
  );
});
