import t, { type Test } from 'tap';
import { journalSchedule, payableCart, retailDiff, type HazardEvent, type JournalEntry } from '../helpers/hazards.js';
import { findOrder } from '../helpers/retail.js';
import { type Reply, startServer } from '../helpers/server.js';
import { latency } from '../../hazards/kinds/latency.js';

const shipped = findOrder((o) => o.fulfillments.length > 0);
const { checkoutArgs } = payableCart();
const HINT = latency.hint({ kind: 'latency', tool: 'search_product' });
const RECOVERY = latency.recovery;

/** A server whose latency hazard waits on a clock the test records (and does not wait on). */
async function recorded(t: Test, env: NodeJS.ProcessEnv) {
  const delays: number[] = [];
  const server = await startServer(t, { hazardEnv: env, sleep: async (ms) => void delays.push(ms) });
  return { server, delays };
}

/** A server whose latency hazard waits until the test releases it. */
async function gated(t: Test, env: NodeJS.ProcessEnv) {
  const waiting: { ms: number; release: () => void }[] = [];
  const clock = { auto: false };
  const server = await startServer(t, {
    hazardEnv: env,
    sleep: (ms) => new Promise<void>((release) => (clock.auto ? release() : waiting.push({ ms, release }))),
  });
  /** Resolves once the server is waiting on its clock (event-loop turns, never wall time). */
  const untilWaiting = async (count: number) => {
    for (let turn = 0; waiting.length < count; turn++) {
      if (turn > 10_000) throw new Error('the server never waited');
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  /** From now on, waits end at once. */
  const stopGating = () => {
    clock.auto = true;
  };
  return { server, waiting, untilWaiting, stopGating };
}

/** The first session ids whose first call of `tool` committed (and did not), under `env`. */
async function sessionsByCommit(t: Test, env: NodeJS.ProcessEnv, tool: string, args: unknown) {
  const { server } = await recorded(t, env);
  const found: Record<string, string> = {};
  for (let i = 0; !(found['true'] && found['false']); i++) {
    if (i > 50) throw new Error('no session with both outcomes');
    const session = `probe-${i}`;
    await server.call('retail', tool, args, session);
    found[String((await server.journal<JournalEntry>(session))[0]!.hazards[0]!['committed'])] ??= session;
  }
  return { committed: found['true']!, notCommitted: found['false']! };
}

t.test('fires only when enabled, on the tools it is set for, and no other kind', async (t) => {
  const off = await recorded(t, { HAZARDS: 'none' });
  for (let i = 0; i < 4; i++)
    t.equal((await off.server.call('retail', 'track_order', { order_id: shipped.order_id }, 'o')).status, 200, 'off: every call answers');
  t.same(off.delays, [], 'off: nothing waits');

  const on = await recorded(t, { HAZARD__LATENCY__TRACK_ORDER: 'on', HAZARD_LATENCY_MS: '1500' });
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await on.server.call('retail', 'track_order', { order_id: shipped.order_id }, 'l')).status);
  const journal = await on.server.journal<JournalEntry>('l');
  t.same(
    journal.map((e) => e.hazards.length),
    [1, 1, 0, 1, 1, 0],
    'p=1: hit twice in a row at most, then a call goes through untouched',
  );
  t.same(on.delays, [1500, 1500, 1500, 1500], 'each hit waits HAZARD_LATENCY_MS, and only hits wait');
  t.same(statuses, [504, 504, 200, 504, 504, 200], 'a hit is a gateway timeout');

  for (const [tool, args] of [
    ['search_product', { query: 'lamp' }],
    ['checkout', checkoutArgs],
    ['get_order_details', { order_id: shipped.order_id }],
  ] as const) {
    await on.server.call('retail', tool, args, 'l');
  }
  t.equal(on.delays.length, 4, 'tools not switched on (search_product, checkout have scenarios) never wait');
  const kinds = new Set((await on.server.journal<JournalEntry>('l')).flatMap((e) => e.hazards.map((h) => `${h.kind} ${h.tool}`)));
  t.same([...kinds], ['latency track_order'], 'no other kind, no other tool');
});

t.test('the journal records kind, family, call, recovery, hint, delay and outcome', async (t) => {
  const { server } = await recorded(t, { HAZARD__LATENCY__SEARCH_PRODUCT: 'on', HAZARD_LATENCY_MS: '2500', HAZARD_MAX_CONSECUTIVE: '99' });
  for (let i = 0; i < 10; i++) t.equal((await server.call('retail', 'search_product', { query: 'lamp' }, 'j')).status, 504);
  const journal = await server.journal<JournalEntry>('j');
  journal.forEach((entry, i) => {
    t.same(entry.hazards, [
      {
        kind: 'latency',
        family: 'execution',
        tool: 'search_product',
        call: i + 1,
        recovery: RECOVERY,
        hint: HINT,
        retryable: true,
        delay_ms: 2500,
        outcome: 'gateway_timeout',
      },
    ]);
    t.equal(entry.status, 504, 'the status the agent saw');
  });
});

t.test('recovery, a read: the 504 comes after the delay, and a retry gets the answer', async (t) => {
  const env = { HAZARD__LATENCY__TRACK_ORDER: 'on', HAZARD_LATENCY_MS: '1500' };
  const expected = (await (await startServer(t)).call('retail', 'track_order', { order_id: shipped.order_id })).body;
  const { server, waiting, untilWaiting, stopGating } = await gated(t, env);
  let answered = false;
  const pending = server.call('retail', 'track_order', { order_id: shipped.order_id }, 'r').then((reply) => {
    answered = true;
    return reply;
  });
  await untilWaiting(1);
  t.equal(waiting[0]!.ms, 1500, 'the server waits HAZARD_LATENCY_MS');
  t.notOk(answered, 'and nothing was answered while it waits');
  waiting[0]!.release();
  t.equal((await pending).status, 504, 'then the gateway gives up');
  stopGating();
  let reply = await server.call('retail', 'track_order', { order_id: shipped.order_id }, 'r');
  for (let tries = 0; reply.status === 504 && tries < 3; tries++) reply = await server.call('retail', 'track_order', { order_id: shipped.order_id }, 'r');
  t.same(reply.body, expected, 'a retry gets the normal answer');
});

t.test('recovery, a write: the outcome is unknown; the journal says whether it committed, a keyed retry writes once', async (t) => {
  const env = { HAZARD__LATENCY__CHECKOUT: 'on', HAZARD_LATENCY_MS: '1500' };
  const { committed, notCommitted } = await sessionsByCommit(t, env, 'checkout', checkoutArgs);
  const { server, waiting, untilWaiting, stopGating } = await gated(t, env);
  for (const [session, wrote] of [
    [committed, true],
    [notCommitted, false],
  ] as const) {
    const args = { ...checkoutArgs, idempotency_key: `order-${session}` };
    const first = server.call('retail', 'checkout', args, session);
    await untilWaiting(wrote ? 1 : 2);
    t.same(await retailDiff(server, session), [], 'nothing is written while the gateway waits');
    waiting.at(-1)!.release();
    t.equal((await first).status, 504, 'a gateway timeout either way');
    const entry = (await server.journal<JournalEntry>(session))[0]!;
    t.equal(entry.hazards[0]!['committed'], wrote, `the journal says committed: ${wrote}`);
    t.equal(
      (await retailDiff(server, session)).some((d) => d.table === 'orders' && d.op === 'insert'),
      wrote,
      wrote ? 'the order exists' : 'no order exists',
    );
    t.equal(entry.changes.length > 0, wrote, 'the journal has the changes exactly when it wrote');
  }
  stopGating();
  for (const session of [committed, notCommitted]) {
    const args = { ...checkoutArgs, idempotency_key: `order-${session}` };
    let reply = await server.call('retail', 'checkout', args, session);
    for (let tries = 0; reply.status === 504 && tries < 3; tries++) reply = await server.call('retail', 'checkout', args, session);
    t.equal(reply.status, 200, 'the keyed retry answers');
    t.equal((await retailDiff(server, session)).filter((d) => d.table === 'orders' && d.op === 'insert').length, 1, 'exactly one order either way');
  }
});

t.test('the cap: HAZARD_MAX_CONSECUTIVE bounds hits in a row', async (t) => {
  for (const max of [1, 2, 4]) {
    const { server, delays } = await recorded(t, { HAZARD__LATENCY__TRACK_ORDER: 'on', HAZARD_MAX_CONSECUTIVE: String(max), HAZARD_LATENCY_MS: '300' });
    for (let i = 0; i < 2 * (max + 1); i++) await server.call('retail', 'track_order', { order_id: shipped.order_id }, 'cap');
    const journal = await server.journal<JournalEntry>('cap');
    t.same(
      journal.map((e) => e.hazards.length > 0),
      [...Array(max).fill(true), false, ...Array(max).fill(true), false],
      `max ${max}`,
    );
    t.equal(delays.length, 2 * max, 'only hits wait');
  }
});

async function run(t: Test, env: NodeJS.ProcessEnv, session: string, interleave?: string) {
  const { server, delays } = await recorded(t, env);
  const statuses: number[] = [];
  for (let i = 0; i < 24; i++) {
    const tool = ['search_product', 'track_order'][i % 2]!;
    const args = tool === 'search_product' ? { query: 'lamp' } : { order_id: shipped.order_id };
    statuses.push((await server.call('retail', tool, args, session)).status);
    if (interleave) for (let k = 0; k <= i % 3; k++) await server.call('retail', tool, args, `${interleave}${k}`);
  }
  const schedule = await journalSchedule(server, session);
  // With other sessions in between, the recorded delays are theirs too: compare a session's own.
  return { statuses, schedule, delays: interleave ? schedule.filter((e) => e.hazards.length > 0).map((e) => e.hazards[0]!['delay_ms']) : delays };
}

t.test('the schedule is fixed by seed, session and call: across restarts, whatever other sessions do', async (t) => {
  const env = { HAZARDS: 'latency', HAZARD_RATE: '0.5', HAZARD_SEED: '21', HAZARD_LATENCY_MS: '1500' };
  const first = await run(t, env, 'det');
  t.same(await run(t, env, 'det'), first, 'a restart gives the same statuses, events and delays');
  t.ok(first.schedule.some((e) => e.hazards.length > 0) && first.schedule.some((e) => e.hazards.length === 0), 'p=0.5: some calls hit, some not');
  t.same(await run(t, env, 'det', 'other'), first, "other sessions' calls in between change nothing");
  const hits = (r: typeof first) => r.schedule.map((e) => e.hazards[0]?.['outcome'] ?? null);
  t.notSame(hits(await run(t, { ...env, HAZARD_SEED: '22' }, 'det')), hits(first), 'another seed gives another schedule');
});

t.test('hints mode: the same schedule, and only the hint is added', async (t) => {
  const env = { HAZARD__LATENCY__SEARCH_PRODUCT: '0.7', HAZARD_SEED: '4', HAZARD_MAX_CONSECUTIVE: '4' };
  const plain = await recorded(t, env);
  const hinted = await recorded(t, { ...env, HAZARD_HINTS: '1' });
  const seen = new Set<string>();
  for (let i = 0; i < 40; i++) {
    const a = await plain.server.call('retail', 'search_product', { query: 'desk' }, 'h');
    const b = await hinted.server.call('retail', 'search_product', { query: 'desk' }, 'h');
    t.equal(b.status, a.status, `call ${i + 1}: same status`);
    if (a.status === 504) {
      if (String(a.headers['content-type']).includes('json')) {
        seen.add('504 json');
        t.same(b.body, { ...a.body, hint: HINT }, '504 JSON: a hint member');
      } else {
        seen.add('504 html');
        t.equal(b.text, `<!-- hint: ${HINT} -->\r\n${a.text}`, '504 HTML: a comment');
        t.equal(b.headers['x-hint'], HINT, 'and an x-hint header');
      }
    } else t.same(b.body, a.body, 'an untouched call is unchanged');
    t.notMatch(a.text, /hint/, 'no hint without hints mode');
  }
  t.same([...seen].sort(), ['504 html', '504 json']);
  t.same(hinted.delays, plain.delays, 'the same delays');
  const strip = (s: { hazards: HazardEvent[] }[]) => s.map((e) => e.hazards);
  t.same(strip(await journalSchedule(hinted.server, 'h')), strip(await journalSchedule(plain.server, 'h')), 'the same events');
});

t.test('realism: gateway timeouts in several styles', async (t) => {
  const { server } = await recorded(t, { HAZARD__LATENCY__SEARCH_PRODUCT: 'on', HAZARD_MAX_CONSECUTIVE: '99' });
  const timeouts: Reply<any>[] = [];
  for (let i = 0; i < 40; i++) {
    const reply = await server.call('retail', 'search_product', { query: 'lamp' }, 'r');
    if (reply.status === 504) timeouts.push(reply);
  }
  t.ok(
    timeouts.some((r) => /text\/html/.test(String(r.headers['content-type'])) && /504 Gateway Time-out/.test(r.text) && /nginx/.test(r.text)),
    'an nginx 504 page',
  );
  const json = timeouts.filter((r) => /json/.test(String(r.headers['content-type'])));
  t.ok(json.length > 0 && json.every((r) => r.body.message === 'Endpoint request timed out'), 'an API gateway 504');
  const ids = json.map((r) => r.headers['x-amzn-requestid']);
  t.equal(new Set(ids).size, ids.length, 'request ids differ between calls');
  t.ok(
    timeouts.every((r) => !/problem\+json/.test(String(r.headers['content-type']))),
    'the gateway speaks, not the API',
  );
});
