import t, { type Test } from 'tap';
import { journalSchedule, payableCart, retailDiff, startHintedPair, type JournalEntry } from '../helpers/hazards.js';
import { type Reply, startServer } from '../helpers/server.js';
import { findOrder, retailFixture } from '../helpers/retail.js';

const db = retailFixture();
const order = findOrder((o) => o.status === 'pending');
const delivered = findOrder((o) => o.status === 'delivered');
const { cart, checkoutArgs } = payableCart();

const failed = (status: number) => status >= 500 || status === 429;

t.test('fires only when enabled, on the tools it is set for, and no other kind', async (t) => {
  const off = await startServer(t);
  for (let i = 0; i < 5; i++) t.equal((await off.call('retail', 'get_order_details', { order_id: order.order_id })).status, 200, 'off: every call answers');
  const quiet = await startServer(t, { hazardEnv: { HAZARDS: 'none', HAZARD_SEED: '1' } });
  for (let i = 0; i < 5; i++)
    t.equal((await quiet.call('retail', 'get_order_details', { order_id: order.order_id }, 'q')).status, 200, 'HAZARDS=none: every call answers');
  t.same(
    (await quiet.journal<JournalEntry>('q')).flatMap((e) => e.hazards),
    [],
    'HAZARDS=none: nothing journaled',
  );

  const server = await startServer(t, { hazardEnv: { HAZARD__TRANSIENT_FAILURE__GET_ORDER_DETAILS: 'on' } });
  const session = await server.newSession({ id: 'tf' });
  const replies: Reply<any>[] = [];
  for (let i = 0; i < 6; i++) replies.push(await server.call('retail', 'get_order_details', { order_id: order.order_id }, session));
  t.same(
    replies.map((r) => failed(r.status)),
    [true, true, false, true, true, false],
    'p=1: at most 2 faults in a row, then the retry succeeds',
  );
  t.same(
    replies[2]!.body,
    (await off.call('retail', 'get_order_details', { order_id: order.order_id })).body,
    'the call that got through answers exactly as without hazards',
  );
  for (const tool of ['search_product', 'calculate'] as const) {
    const args = tool === 'calculate' ? { expression: '2 + 3' } : { query: 'lamp' };
    for (let i = 0; i < 3; i++)
      t.equal((await server.call('retail', tool, args, session)).status, 200, `${tool} has a scenario but is not switched on: untouched`);
  }
  t.equal((await server.call('retail', 'get_user_details', { user_id: order.user_id }, session)).status, 200, 'other tools are untouched');
  const kinds = new Set((await server.journal<JournalEntry>(session)).flatMap((e) => e.hazards.map((h) => `${h.kind} ${h.tool}`)));
  t.same([...kinds], ['transient_failure get_order_details'], 'no other kind and no other tool is touched');

  // HAZARDS=transient_failure: every tool it is assigned to, and none other.
  const assigned = await startServer(t, { hazardEnv: { HAZARDS: 'transient_failure' } });
  t.ok(failed((await assigned.call('retail', 'search_product', { query: 'lamp' }, 'a')).status), 'an assigned tool (search_product) is hit');
  t.ok(failed((await assigned.call('retail', 'calculate', { expression: '1 + 1' }, 'a')).status), 'an assigned tool (calculate) is hit');
  t.equal((await assigned.call('retail', 'get_user_details', { user_id: order.user_id }, 'a')).status, 200, 'a tool without a scenario is not');
  t.equal((await assigned.call('retail', 'track_order', { order_id: delivered.order_id }, 'a')).status, 200, 'a tool with other scenarios only is not');
});

t.test('the journal records kind, family, tool, call number, recovery, hint and status', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARD__TRANSIENT_FAILURE__GET_ORDER_DETAILS: 'on' } });
  const replies: Reply<any>[] = [];
  for (let i = 0; i < 5; i++) replies.push(await server.call('retail', 'get_order_details', { order_id: order.order_id }, 'j'));
  const journal = await server.journal<JournalEntry>('j');
  t.same(
    journal.map((e) => e.call),
    [1, 2, 3, 4, 5],
  );
  for (const i of [0, 1, 3, 4]) {
    const entry = journal[i]!;
    t.equal(entry.status, replies[i]!.status, `call ${i + 1}: the journal has the status the agent saw`);
    t.same(entry.changes, [], 'nothing changed');
    t.equal(entry.result, undefined, 'no result');
    t.same(entry.hazards, [
      {
        kind: 'transient_failure',
        family: 'execution',
        tool: 'get_order_details',
        call: i + 1,
        recovery: 'retry the same call (after Retry-After when given); nothing was executed',
        hint: 'The server failed transiently and did not run the call; the same call can be retried.',
        retryable: true,
        status: replies[i]!.status,
      },
    ]);
  }
  t.same(journal[2]!.hazards, [], 'the call that got through carries no hazard');
  t.equal(journal[2]!.status, 200);
});

t.test('recovery: a retry gets through within max_consecutive + 1 tries', async (t) => {
  for (const max of [1, 2, 3, 5]) {
    const server = await startServer(t, { hazardEnv: { HAZARD__TRANSIENT_FAILURE__SEARCH_PRODUCT: 'on', HAZARD_MAX_CONSECUTIVE: String(max) } });
    const statuses: number[] = [];
    for (let i = 0; i < 2 * (max + 1); i++) statuses.push((await server.call('retail', 'search_product', { query: 'lamp' }, 'm')).status);
    const expected = [...Array(max).fill(true), false, ...Array(max).fill(true), false];
    t.same(statuses.map(failed), expected, `HAZARD_MAX_CONSECUTIVE=${max}: ${max} faults, then the retry answers`);
  }

  // At p=0.7, a retry loop never needs more than max_consecutive + 1 tries.
  const server = await startServer(t, { hazardEnv: { HAZARD__TRANSIENT_FAILURE__SEARCH_PRODUCT: '0.7', HAZARD_SEED: '3' } });
  let longest = 0;
  let faults = 0;
  for (let task = 0; task < 40; task++) {
    let tries = 0;
    let status = 0;
    do {
      status = (await server.call('retail', 'search_product', { query: 'lamp' }, 'loop')).status;
      tries += 1;
      if (failed(status)) faults += 1;
    } while (failed(status) && tries < 10);
    t.equal(status, 200, `task ${task} gets through`);
    longest = Math.max(longest, tries);
  }
  t.ok(faults > 10, `p=0.7 injects faults (${faults})`);
  t.equal(longest, 3, 'the longest retry loop takes exactly max_consecutive + 1 = 3 tries');
});

t.test('recovery: a failed write is never applied; a retry applies it exactly once', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARD__TRANSIENT_FAILURE__CHECKOUT: 'on', HAZARD__TRANSIENT_FAILURE__CANCEL_PENDING_ORDER: 'on' } });
  const session = await server.newSession({ id: 'w' });
  const before = await server.state(session);
  for (let i = 0; i < 2; i++) {
    const reply = await server.call('retail', 'checkout', checkoutArgs, session);
    t.ok(failed(reply.status), `checkout ${i + 1} fails`);
    t.same(await retailDiff(server, session), [], 'nothing was applied');
  }
  t.same((await server.state(session)).retail.carts[cart.user_id], before.retail.carts[cart.user_id], 'the cart is still there');
  const done = await server.call('retail', 'checkout', checkoutArgs, session);
  t.equal(done.status, 200, 'the retry is applied');
  const newOrder = done.body.order_id as string;
  t.same(
    (await retailDiff(server, session)).map((d) => [d.table, d.id, d.op]).sort(),
    [
      ['carts', cart.user_id, 'delete'],
      ['orders', newOrder, 'insert'],
      ['users', cart.user_id, 'update'],
    ],
    'exactly one order was made',
  );
  t.same((await server.state(session)).retail.users[cart.user_id].orders, [...db.users[cart.user_id]!.orders, newOrder], 'the order is on the profile once');

  // cancel_pending_order has no declared scenario: the generic one applies when named.
  const cancel = { order_id: order.order_id, reason: 'no longer needed' };
  for (let i = 0; i < 2; i++) t.ok(failed((await server.call('retail', 'cancel_pending_order', cancel, session)).status), `cancel ${i + 1} fails`);
  t.equal((await server.state(session)).retail.orders[order.order_id].status, 'pending', 'the order is still pending');
  const cancelled = await server.call('retail', 'cancel_pending_order', cancel, session);
  t.equal(cancelled.status, 200);
  t.equal(cancelled.body.status, 'cancelled');
  t.same(
    cancelled.body.payment_history.filter((p: { transaction_type: string }) => p.transaction_type === 'refund').length,
    order.payment_history.length,
    'refunded once',
  );
  const journal = await server.journal<JournalEntry>(session);
  t.same(
    journal.map((e) => [e.tool, e.status === 200, e.changes.length > 0]),
    [
      ['checkout', false, false],
      ['checkout', false, false],
      ['checkout', true, true],
      ['cancel_pending_order', false, false],
      ['cancel_pending_order', false, false],
      ['cancel_pending_order', true, true],
    ],
    'only the calls that got through changed anything',
  );
});

/** A session's calls of a mixed script, under the given variables. */
async function run(t: Test, env: NodeJS.ProcessEnv, session: string, interleave?: string, seed?: string) {
  const server = await startServer(t, { hazardEnv: env });
  if (seed !== undefined) await server.newSession({ id: session, seed });
  const statuses: number[] = [];
  for (let i = 0; i < 24; i++) {
    const tool = ['search_product', 'get_order_details', 'calculate'][i % 3]!;
    const args = tool === 'search_product' ? { query: 'lamp' } : tool === 'calculate' ? { expression: '6 * 7' } : { order_id: order.order_id };
    statuses.push((await server.call('retail', tool, args, session)).status);
    if (interleave) for (let k = 0; k <= i % 3; k++) await server.call('retail', tool, args, `${interleave}${k}`);
  }
  return { statuses, schedule: await journalSchedule(server, session) };
}

t.test('the schedule is fixed by seed, session (unless it has a seed of its own) and call: across restarts, whatever other sessions do', async (t) => {
  const env = { HAZARDS: 'transient_failure', HAZARD_RATE: '0.5', HAZARD_SEED: '11' };
  const first = await run(t, env, 'det');
  const second = await run(t, env, 'det');
  t.same(second, first, 'a restart with the same variables and session id gives the same statuses and events');
  t.ok(first.statuses.some(failed) && first.statuses.some((s) => s === 200), 'p=0.5: some calls fail, some answer');
  t.same(await run(t, env, 'det', 'other'), first, "other sessions' calls in between change nothing");
  const reseeded = await run(t, { ...env, HAZARD_SEED: '12' }, 'det');
  t.notSame(reseeded.statuses.map(failed), first.statuses.map(failed), 'another seed gives another schedule');
  const renamed = await run(t, env, 'det2');
  t.notSame(renamed.statuses.map(failed), first.statuses.map(failed), 'another session gives another schedule');
  // A session given its own seed (POST /sessions): its schedule is the seed's, whatever its id and the server's seed.
  const seeded = await run(t, { ...env, HAZARD_SEED: '99' }, 'det', undefined, '11');
  t.same(await run(t, env, 'another-id', undefined, '11'), seeded, "a session's own seed fixes its schedule, whatever its id and HAZARD_SEED");
  t.ok(seeded.statuses.some(failed) && seeded.statuses.some((s) => s === 200), 'and it draws as a seed does');
  t.notSame((await run(t, env, 'det', undefined, '12')).statuses.map(failed), seeded.statuses.map(failed), 'another own seed, another schedule');
});

t.test('hints mode: the same schedule, and only the hint is added', async (t) => {
  const env = { HAZARD__TRANSIENT_FAILURE__SEARCH_PRODUCT: '0.6', HAZARD_SEED: '5', HAZARD_MAX_CONSECUTIVE: '3' };
  const { plain, hinted } = await startHintedPair(t, env);
  const hint = 'The server failed transiently and did not run the call; the same call can be retried.';
  const styles = new Set<string>();
  for (let i = 0; i < 40; i++) {
    const a = await plain.call('retail', 'search_product', { query: 'desk' }, 'h');
    const b = await hinted.call('retail', 'search_product', { query: 'desk' }, 'h');
    t.equal(b.status, a.status, `call ${i + 1}: same status`);
    const type = String(a.headers['content-type']);
    t.equal(b.headers['content-type'], type, 'same content type');
    if (!failed(a.status)) {
      t.same(b.body, a.body, 'a successful answer is unchanged');
      continue;
    }
    t.equal(b.headers['retry-after'], a.headers['retry-after'], 'same Retry-After');
    if (type.includes('json')) {
      styles.add('json');
      t.same(b.body, { ...a.body, hint }, 'JSON: a hint member is added, nothing else');
      t.equal(b.headers['x-hint'], undefined);
    } else if (type.includes('html')) {
      styles.add('html');
      t.equal(b.text, `<!-- hint: ${hint} -->\r\n${a.text}`, 'HTML: a comment is added');
      t.equal(b.headers['x-hint'], hint, 'and an x-hint header');
    } else {
      styles.add('text');
      t.equal(b.text, `${a.text}\n(hint: ${hint})`, 'text: the hint is appended');
      t.equal(b.headers['x-hint'], hint, 'and an x-hint header');
    }
    t.equal(a.headers['x-hint'], undefined, 'no hint without hints mode');
    t.notMatch(a.text, /hint/, 'no hint in the body without hints mode');
  }
  t.same([...styles].sort(), ['html', 'json', 'text'], 'every body style was seen');
  t.same(await journalSchedule(hinted, 'h'), await journalSchedule(plain, 'h'), 'the same journal');
});

t.test('realism: several real-world styles, request ids that differ, Retry-After on 429', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARD__TRANSIENT_FAILURE__CALCULATE: 'on', HAZARD_MAX_CONSECUTIVE: '99' } });
  const replies: Reply<any>[] = [];
  for (let i = 0; i < 60; i++) replies.push(await server.call('retail', 'calculate', { expression: '1 + 2' }, 'r'));
  t.ok(
    replies.every((r) => failed(r.status)),
    'every call fails (max_consecutive 99)',
  );
  const statuses = new Set(replies.map((r) => r.status));
  t.same([...statuses].sort(), [429, 500, 502, 503], 'every status: 500, 502, 503 and 429');
  const bodies = new Set(replies.map((r) => r.text.replace(/[0-9a-f]{8,}|E\d{4}|shard \d+/g, '#')));
  t.ok(bodies.size >= 5, `bodies in ${bodies.size} styles`);
  t.ok(
    replies.some((r) => /<center>nginx<\/center>/.test(r.text) && /text\/html/.test(String(r.headers['content-type']))),
    'an nginx HTML page',
  );
  t.ok(
    replies.some((r) => /text\/plain/.test(String(r.headers['content-type']))),
    'a plain text body',
  );
  t.ok(
    replies.every((r) => !/problem\+json/.test(String(r.headers['content-type']))),
    'not the API’s own problem JSON',
  );

  const ids = replies.flatMap((r) =>
    [r.body?.error?.request_id, r.headers['x-request-id'], r.headers['x-amzn-requestid'], r.body?.trace_id].filter((id) => typeof id === 'string'),
  );
  t.ok(ids.length >= 20, `request ids (${ids.length})`);
  t.equal(new Set(ids).size, ids.length, 'request ids differ between calls');

  const limited = replies.filter((r) => r.status === 429);
  t.ok(limited.length >= 3, `some 429s (${limited.length})`);
  for (const r of limited) {
    const seconds = Number(r.headers['retry-after']);
    t.ok(Number.isInteger(seconds) && seconds >= 1 && seconds <= 3, `Retry-After: ${r.headers['retry-after']}`);
    t.match(r.body, { error: { type: 'rate_limit_error', message: new RegExp(`Retry after ${seconds} second`) } });
    t.equal(r.headers['x-ratelimit-remaining'], '0');
  }
  t.ok(
    replies.filter((r) => r.status !== 429).every((r) => r.headers['retry-after'] === undefined),
    'only 429 carries Retry-After',
  );

  const journal = await server.journal<JournalEntry>('r');
  t.same(
    journal.map((e) => e.hazards[0]?.['status']),
    replies.map((r) => r.status),
    'the journal has each status',
  );
});
