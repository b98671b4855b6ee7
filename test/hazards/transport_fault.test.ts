import t, { type Test } from 'tap';
import { request } from 'undici';
import { journalSchedule, payableCart, retailDiff, type JournalEntry } from '../helpers/hazards.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { findOrder } from '../helpers/retail.js';
import { transportFault } from '../../hazards/kinds/transport_fault.js';

const order = findOrder((o) => o.status === 'delivered' && o.fulfillments.length > 0);
const pending = findOrder((o) => o.status === 'pending');
const { cart, checkoutArgs } = payableCart();
const HINT = 'The connection failed; the call can be retried.';
const RECOVERY = transportFault.recovery;

/** What a real client (undici, a fresh request each time) makes of one call. */
type Seen =
  | { outcome: 'answer'; status: number; body: unknown }
  | { outcome: 'rejected'; code: string }
  | { outcome: 'body_error'; status: number; code: string }
  | { outcome: 'unparsable'; status: number; contentType: string; text: string };

async function call(server: TestServer, tool: string, args: unknown, session: string): Promise<Seen> {
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(`${server.origin}/s/${session}/retail/tools/${tool}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(args),
    });
  } catch (error) {
    return { outcome: 'rejected', code: String((error as { code?: string }).code) };
  }
  let text: string;
  try {
    text = await response.body.text();
  } catch (error) {
    return { outcome: 'body_error', status: response.statusCode, code: String((error as { code?: string }).code) };
  }
  try {
    return { outcome: 'answer', status: response.statusCode, body: JSON.parse(text) };
  } catch {
    return { outcome: 'unparsable', status: response.statusCode, contentType: String(response.headers['content-type']), text };
  }
}

const ok = (seen: Seen) => seen.outcome === 'answer' && seen.status === 200;

t.test('fires only when enabled, on the tools it is set for, and no other kind', async (t) => {
  const off = await startServer(t);
  const expected = (await off.call('retail', 'get_order_details', { order_id: order.order_id })).body;
  for (let i = 0; i < 5; i++)
    t.same(
      await call(off, 'get_order_details', { order_id: order.order_id }, 'o'),
      { outcome: 'answer', status: 200, body: expected },
      'off: every call answers',
    );

  const server = await startServer(t, { hazardEnv: { HAZARD__TRANSPORT_FAULT__GET_ORDER_DETAILS: 'on' } });
  const seen: Seen[] = [];
  for (let i = 0; i < 6; i++) seen.push(await call(server, 'get_order_details', { order_id: order.order_id }, 'tf'));
  t.same(seen.map(ok), [false, false, true, false, false, true], 'p=1: at most 2 faults in a row, then the retry succeeds');
  t.same(seen[2], { outcome: 'answer', status: 200, body: expected }, 'the call that gets through answers normally');
  for (const [tool, args] of [
    ['search_product', { query: 'lamp' }],
    ['checkout', checkoutArgs],
    ['get_user_details', { user_id: order.user_id }],
  ] as const) {
    for (let i = 0; i < 3; i++) t.equal((await call(server, tool, args, 'tf')).outcome, 'answer', `${tool} is untouched (answers over HTTP)`);
  }
  const kinds = new Set((await server.journal<JournalEntry>('tf')).flatMap((e) => e.hazards.map((h) => `${h.kind} ${h.tool}`)));
  t.same([...kinds], ['transport_fault get_order_details'], 'no other kind, no other tool');
});

t.test('the journal records kind, family, call, recovery, hint, mode and whether it ran', async (t) => {
  const server = await startServer(t, {
    hazardEnv: { HAZARD__TRANSPORT_FAULT__GET_ORDER_DETAILS: 'on', HAZARD__TRANSPORT_FAULT__CHECKOUT: 'on', HAZARD_MAX_CONSECUTIVE: '99' },
  });
  for (let i = 0; i < 12; i++) await call(server, 'get_order_details', { order_id: order.order_id }, 'j');
  for (let i = 0; i < 8; i++) await call(server, 'checkout', checkoutArgs, 'j');
  const journal = await server.journal<JournalEntry>('j');
  journal.forEach((entry) => {
    const mode = (entry.hazards[0] as unknown as { mode: string }).mode;
    const answered = mode === 'truncated' || mode === 'malformed';
    t.equal(entry.status, answered ? 200 : 0, `${mode}: status ${answered ? '200, as the status line said' : '0: no HTTP answer'}`);
    if (answered) t.type(entry.result, 'string', 'the broken body the client received');
    else t.equal(entry.result, undefined);
    t.same(entry.changes, []);
  });
  const reads = journal.filter((e) => e.tool === 'get_order_details');
  reads.forEach((entry, i) => {
    t.match(entry.hazards, [
      {
        kind: 'transport_fault',
        family: 'execution',
        tool: 'get_order_details',
        call: i + 1,
        recovery: RECOVERY,
        hint: HINT,
        retryable: true,
        mode: /^(reset|empty|truncated|malformed)$/,
        executed: true,
      },
    ]);
  });
  const writes = journal.filter((e) => e.tool === 'checkout');
  writes.forEach((entry, i) => {
    t.same(entry.hazards, [
      {
        kind: 'transport_fault',
        family: 'execution',
        tool: 'checkout',
        call: i + 1,
        recovery: RECOVERY,
        hint: HINT,
        retryable: true,
        mode: entry.hazards[0]!['mode'],
        executed: false,
        committed: false,
      },
    ]);
  });
  t.same([...new Set(writes.map((e) => e.hazards[0]!['mode']))].sort(), ['empty', 'reset'], 'a write fails before an answer: reset or empty');
  t.same([...new Set(reads.map((e) => e.hazards[0]!['mode']))].sort(), ['empty', 'malformed', 'reset', 'truncated'], 'a read fails in every mode');
});

t.test('recovery: a retry gets through within max_consecutive + 1 tries', async (t) => {
  for (const max of [1, 2, 3]) {
    const server = await startServer(t, { hazardEnv: { HAZARD__TRANSPORT_FAULT__SEARCH_PRODUCT: 'on', HAZARD_MAX_CONSECUTIVE: String(max) } });
    const seen: boolean[] = [];
    for (let i = 0; i < 2 * (max + 1); i++) seen.push(ok(await call(server, 'search_product', { query: 'lamp' }, 'm')));
    t.same(seen, [...Array(max).fill(false), true, ...Array(max).fill(false), true], `HAZARD_MAX_CONSECUTIVE=${max}`);
  }
});

t.test('recovery: a write that fails on the wire was not applied; a retry applies it once', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARD__TRANSPORT_FAULT__CHECKOUT: 'on', HAZARD__TRANSPORT_FAULT__CANCEL_PENDING_ORDER: 'on' } });
  for (let i = 0; i < 2; i++) {
    const seen = await call(server, 'checkout', checkoutArgs, 'w');
    t.equal(seen.outcome, 'rejected', `checkout ${i + 1}: the connection fails`);
    t.same(await retailDiff(server, 'w'), [], 'nothing was applied');
  }
  const done = await call(server, 'checkout', checkoutArgs, 'w');
  t.ok(ok(done), 'the retry answers');
  const made = (done as { body: { order_id: string } }).body.order_id;
  t.same(
    (await retailDiff(server, 'w')).map((d) => [d.table, d.id, d.op]).sort(),
    [
      ['carts', cart.user_id, 'delete'],
      ['orders', made, 'insert'],
      ['users', cart.user_id, 'update'],
    ],
    'one order, made once',
  );

  const cancel = { order_id: pending.order_id, reason: 'no longer needed' };
  for (let i = 0; i < 2; i++) t.equal((await call(server, 'cancel_pending_order', cancel, 'w')).outcome, 'rejected', `cancel ${i + 1} fails on the wire`);
  t.equal((await server.state('w')).retail.orders[pending.order_id].status, 'pending', 'the order is still pending');
  const cancelled = await call(server, 'cancel_pending_order', cancel, 'w');
  t.match(cancelled, { outcome: 'answer', status: 200, body: { status: 'cancelled' } });
  const refunds = (await server.state('w')).retail.orders[pending.order_id].payment_history.filter(
    (p: { transaction_type: string }) => p.transaction_type === 'refund',
  );
  t.equal(refunds.length, pending.payment_history.length, 'refunded once');
});

/** Client outcomes and journal of one session's script, on a fresh server. */
async function run(t: Test, env: NodeJS.ProcessEnv, session: string, interleave?: string) {
  const server = await startServer(t, { hazardEnv: env });
  const seen: string[] = [];
  for (let i = 0; i < 20; i++) {
    const tool = ['search_product', 'get_order_details'][i % 2]!;
    const args = tool === 'search_product' ? { query: 'lamp' } : { order_id: order.order_id };
    const outcome = await call(server, tool, args, session);
    seen.push(outcome.outcome === 'answer' ? `answer ${outcome.status}` : outcome.outcome);
    if (interleave) for (let k = 0; k <= i % 3; k++) await call(server, tool, args, `${interleave}${k}`);
  }
  return { seen, journal: await journalSchedule(server, session) };
}

t.test('the schedule is fixed by seed, session and call: across restarts, whatever other sessions do', async (t) => {
  const env = { HAZARDS: 'transport_fault', HAZARD_RATE: '0.5', HAZARD_SEED: '8' };
  const first = await run(t, env, 'det');
  t.same(await run(t, env, 'det'), first, 'a restart gives the same client outcomes and journal');
  t.ok(first.seen.includes('answer 200') && first.seen.some((s) => s !== 'answer 200'), 'p=0.5: some calls fail, some answer');
  t.same(await run(t, env, 'det', 'other'), first, "other sessions' calls in between change nothing");
  const modes = (r: typeof first) => r.journal.map((e) => e.hazards[0]?.['mode'] ?? null);
  t.notSame(modes(await run(t, { ...env, HAZARD_SEED: '9' }, 'det')), modes(first), 'another seed gives another schedule');
});

t.test('hints mode: the same schedule; the hint is journaled', async (t) => {
  const env = { HAZARD__TRANSPORT_FAULT__GET_ORDER_DETAILS: '0.6', HAZARD_SEED: '2' };
  const plain = await run(t, env, 'h');
  const hinted = await run(t, { ...env, HAZARD_HINTS: '1' }, 'h');
  t.same(hinted.seen, plain.seen, 'the client sees the same outcomes');
  t.same(hinted.journal, plain.journal, 'the same journal');
  t.ok(
    plain.journal.flatMap((e) => e.hazards).every((h) => h.hint === HINT),
    'each event carries the hint',
  );
});

t.test('realism: what a real client observes of each mode', async (t) => {
  const server = await startServer(t, {
    hazardEnv: { HAZARD__TRANSPORT_FAULT__GET_ORDER_DETAILS: 'on', HAZARD__TRANSPORT_FAULT__CHECKOUT: 'on', HAZARD_MAX_CONSECUTIVE: '99' },
  });
  const observed: { mode: string; seen: Seen }[] = [];
  for (let i = 0; i < 24; i++) {
    const seen = await call(server, 'get_order_details', { order_id: order.order_id }, 'r');
    observed.push({ mode: (await server.journal<JournalEntry>('r')).at(-1)!.hazards[0]!['mode'] as string, seen });
  }
  const full = (await (await startServer(t)).call('retail', 'get_order_details', { order_id: order.order_id })).text;
  for (const { mode, seen } of observed) {
    switch (mode) {
      case 'reset':
      case 'empty':
        t.match(seen, { outcome: 'rejected', code: /^(ECONNRESET|UND_ERR_SOCKET)$/ }, `${mode}: the request rejects with a socket error`);
        break;
      case 'truncated':
        t.match(seen, { outcome: /^(body_error|unparsable)$/, status: 200 }, 'truncated: headers say 200, the body errors');
        if (seen.outcome === 'body_error') t.match(seen.code, /^(UND_ERR_SOCKET|ECONNRESET|UND_ERR_RES_CONTENT_LENGTH_MISMATCH)$/);
        break;
      case 'malformed':
        t.match(seen, { outcome: 'unparsable', status: 200, contentType: /application\/json/ }, 'malformed: a 200 JSON answer that JSON.parse rejects');
        if (seen.outcome === 'unparsable') {
          t.equal(seen.text.length, full.length, 'as long as the real answer');
          t.not(seen.text, full, 'but broken');
        }
        break;
      default:
        t.fail(`unknown mode ${mode}`);
    }
  }
  t.same([...new Set(observed.map((o) => o.mode))].sort(), ['empty', 'malformed', 'reset', 'truncated'], 'every mode was observed');
  t.ok(
    observed.some((o) => o.mode === 'reset' && o.seen.outcome === 'rejected' && o.seen.code === 'ECONNRESET'),
    'a reset is a reset (ECONNRESET)',
  );
  t.ok(
    observed.some((o) => o.mode === 'empty' && o.seen.outcome === 'rejected' && o.seen.code === 'UND_ERR_SOCKET'),
    'an empty reply closes the connection (other side closed)',
  );

  for (let i = 0; i < 6; i++)
    t.match(await call(server, 'checkout', checkoutArgs, 'r'), { outcome: 'rejected' }, 'a write never gets an answer it could misread');
  t.same(await retailDiff(server, 'r'), []);
  const healthy = await request(`${server.origin}/health`);
  t.equal(healthy.statusCode, 200, 'the server is fine after all this');
  await healthy.body.dump();
});
