import t, { type Test } from 'tap';
import { journalSchedule, payableCart, retailDiff, type HazardEvent, type JournalEntry } from '../helpers/hazards.js';
import { findOrder } from '../helpers/retail.js';
import { type Reply, startServer } from '../helpers/server.js';

const shipped = findOrder((o) => o.fulfillments.length > 0);
const { checkoutArgs } = payableCart();
const HINT = 'The service was slow; a 504 means the call did not run and can be retried.';
const RECOVERY = 'wait for the answer, or retry after a 504; nothing was executed on a 504';

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
  const stopGating = () => void (clock.auto = true);
  return { server, waiting, untilWaiting, stopGating };
}

/** The first session ids (latency-… ) whose first call of `tool` has each outcome, under `env`. */
async function sessionsByOutcome(t: Test, env: NodeJS.ProcessEnv, tool: string, args: unknown) {
  const { server } = await recorded(t, env);
  const found: Record<string, string> = {};
  for (let i = 0; !(found['slow'] && found['gateway_timeout']); i++) {
    if (i > 50) throw new Error('no session with both outcomes');
    const session = `probe-${i}`;
    await server.call('retail', tool, args, session);
    const outcome = (await server.journal<JournalEntry>(session))[0]!.hazards[0]!['outcome'] as string;
    found[outcome] ??= session;
  }
  return { slow: found['slow']!, timeout: found['gateway_timeout']! };
}

t.test('fires only when enabled, on the tools it is set for, and no other kind', async (t) => {
  const off = await recorded(t, { HAZARDS: 'none' });
  const baseline = await off.server.call('retail', 'track_order', { order_id: shipped.order_id }, 'o');
  for (let i = 0; i < 4; i++) t.equal((await off.server.call('retail', 'track_order', { order_id: shipped.order_id }, 'o')).status, 200, 'off: every call answers');
  t.same(off.delays, [], 'off: nothing waits');

  const on = await recorded(t, { HAZARD__LATENCY__TRACK_ORDER: 'on', HAZARD_LATENCY_MS: '1500' });
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await on.server.call('retail', 'track_order', { order_id: shipped.order_id }, 'l')).status);
  const journal = await on.server.journal<JournalEntry>('l');
  t.same(journal.map((e) => e.hazards.length), [1, 1, 0, 1, 1, 0], 'p=1: hit twice in a row at most, then a call goes through untouched');
  t.same(on.delays, [1500, 1500, 1500, 1500], 'each hit waits HAZARD_LATENCY_MS, and only hits wait');
  t.ok(statuses.every((s) => s === 200 || s === 504), 'slow answers (200) or gateway timeouts (504)');
  t.same(statuses[2], 200);

  for (const [tool, args] of [['search_product', { query: 'lamp' }], ['checkout', checkoutArgs], ['get_order_details', { order_id: shipped.order_id }]] as const) {
    await on.server.call('retail', tool, args, 'l');
  }
  t.equal(on.delays.length, 4, 'tools not switched on (search_product, checkout have scenarios) never wait');
  const kinds = new Set((await on.server.journal<JournalEntry>('l')).flatMap((e) => e.hazards.map((h) => `${h.kind} ${h.tool}`)));
  t.same([...kinds], ['latency track_order'], 'no other kind, no other tool');

  const slowOnes = journal.filter((e) => e.status === 200 && e.hazards.length > 0);
  for (const entry of slowOnes) t.same(entry.result, baseline.body, 'a slow answer is the normal answer');
});

t.test('the journal records kind, family, call, recovery, hint, delay and outcome', async (t) => {
  const { server } = await recorded(t, { HAZARD__LATENCY__SEARCH_PRODUCT: 'on', HAZARD_LATENCY_MS: '2500', HAZARD_MAX_CONSECUTIVE: '99' });
  const replies: Reply<any>[] = [];
  for (let i = 0; i < 30; i++) replies.push(await server.call('retail', 'search_product', { query: 'lamp' }, 'j'));
  const journal = await server.journal<JournalEntry>('j');
  const outcomes = new Set<string>();
  journal.forEach((entry, i) => {
    const outcome = replies[i]!.status === 504 ? 'gateway_timeout' : 'slow';
    outcomes.add(outcome);
    t.same(entry.hazards, [{ kind: 'latency', family: 'execution', tool: 'search_product', call: i + 1, recovery: RECOVERY, hint: HINT, retryable: true, delay_ms: 2500, outcome }], `call ${i + 1}: ${outcome}`);
    t.equal(entry.status, replies[i]!.status, 'the status the agent saw');
  });
  t.same([...outcomes].sort(), ['gateway_timeout', 'slow'], 'both outcomes occur');
  const timeouts = replies.filter((r) => r.status === 504).length;
  t.ok(timeouts >= 5 && timeouts <= 20, `about 40% gateway timeouts (${timeouts}/30)`);
});

t.test('recovery: a slow answer arrives, normal, only after the delay', async (t) => {
  const env = { HAZARD__LATENCY__CHECKOUT: 'on', HAZARD__LATENCY__TRACK_ORDER: 'on', HAZARD_LATENCY_MS: '1500' };
  const { slow } = await sessionsByOutcome(t, env, 'track_order', { order_id: shipped.order_id });
  const off = await startServer(t);
  const expected = (await off.call('retail', 'track_order', { order_id: shipped.order_id })).body;

  const { server, waiting, untilWaiting } = await gated(t, env);
  let answered = false;
  const pending = server.call('retail', 'track_order', { order_id: shipped.order_id }, slow).then((reply) => {
    answered = true;
    return reply;
  });
  await untilWaiting(1);
  t.equal(waiting[0]!.ms, 1500, 'the server waits HAZARD_LATENCY_MS');
  t.same(await server.journal<JournalEntry>(slow), [], 'while it waits, the call has not run (nor been journaled)');
  t.notOk(answered, 'and nothing was answered');
  waiting[0]!.release();
  const reply = await pending;
  t.equal(reply.status, 200);
  t.same(reply.body, expected, 'then the normal answer');

  // A slow write is applied, after the delay, exactly once.
  const write = await sessionsByOutcome(t, env, 'checkout', checkoutArgs);
  const paying = server.call('retail', 'checkout', checkoutArgs, write.slow);
  await untilWaiting(2);
  t.same(await retailDiff(server, write.slow), [], 'a slow checkout has changed nothing while it waits');
  waiting[1]!.release();
  const done = await paying;
  t.equal(done.status, 200, 'then it is applied');
  t.same((await retailDiff(server, write.slow)).map((d) => d.op).sort(), ['delete', 'insert', 'update'], 'once');
});

t.test('recovery: a 504 comes after the delay, runs nothing, and a retry gets through', async (t) => {
  const env = { HAZARD__LATENCY__CHECKOUT: 'on', HAZARD_LATENCY_MS: '1500' };
  const { timeout } = await sessionsByOutcome(t, env, 'checkout', checkoutArgs);
  const { server, waiting, untilWaiting, stopGating } = await gated(t, env);
  const first = server.call('retail', 'checkout', checkoutArgs, timeout);
  await untilWaiting(1);
  t.same(await server.journal<JournalEntry>(timeout), [], 'the gateway waits before it gives up');
  waiting[0]!.release();
  const reply = await first;
  t.equal(reply.status, 504, 'a gateway timeout');
  t.same(await retailDiff(server, timeout), [], 'the checkout was not applied');
  t.same((await server.journal<JournalEntry>(timeout))[0]!.changes, [], 'the journal shows no change');

  // Retry until it goes through: at most max_consecutive + 1 tries, applied exactly once.
  stopGating();
  const statuses = [504];
  for (let tries = 1; statuses.at(-1) !== 200 && tries < 6; tries++) statuses.push((await server.call('retail', 'checkout', checkoutArgs, timeout)).status);
  t.equal(statuses.at(-1), 200, `the retry gets through (${statuses.join(', ')})`);
  t.ok(statuses.length <= 3, 'within max_consecutive + 1 = 3 tries');
  const diff = await retailDiff(server, timeout);
  t.equal(diff.filter((d) => d.table === 'orders' && d.op === 'insert').length, 1, 'exactly one order was made');
  const again = await server.call('retail', 'checkout', checkoutArgs, timeout);
  if (again.status === 504) t.pass('a further call may time out');
  else t.equal(again.status, 409, 'a further checkout finds the cart empty: it was applied once');
});

t.test('the cap: HAZARD_MAX_CONSECUTIVE bounds hits in a row', async (t) => {
  for (const max of [1, 2, 4]) {
    const { server, delays } = await recorded(t, { HAZARD__LATENCY__TRACK_ORDER: 'on', HAZARD_MAX_CONSECUTIVE: String(max), HAZARD_LATENCY_MS: '300' });
    for (let i = 0; i < 2 * (max + 1); i++) await server.call('retail', 'track_order', { order_id: shipped.order_id }, 'cap');
    const journal = await server.journal<JournalEntry>('cap');
    t.same(journal.map((e) => e.hazards.length > 0), [...Array(max).fill(true), false, ...Array(max).fill(true), false], `max ${max}`);
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
    const hit = (await plain.server.journal<JournalEntry>('h'))[i]!.hazards.length > 0;
    if (a.status === 504) {
      if (String(a.headers['content-type']).includes('json')) {
        seen.add('504 json');
        t.same(b.body, { ...a.body, hint: HINT }, '504 JSON: a hint member');
      } else {
        seen.add('504 html');
        t.equal(b.text, `<!-- hint: ${HINT} -->\r\n${a.text}`, '504 HTML: a comment');
        t.equal(b.headers['x-hint'], HINT, 'and an x-hint header');
      }
    } else if (hit) {
      seen.add('slow');
      t.same(b.body, { ...a.body, _hint: HINT }, 'a slow answer: the hint as _hint, nothing else');
    } else {
      t.same(b.body, a.body, 'an untouched call is unchanged');
    }
    t.notMatch(a.text, /hint/, 'no hint without hints mode');
  }
  t.same([...seen].sort(), ['504 html', '504 json', 'slow']);
  t.same(hinted.delays, plain.delays, 'the same delays');
  const strip = (s: { hazards: HazardEvent[] }[]) => s.map((e) => e.hazards);
  t.same(strip(await journalSchedule(hinted.server, 'h')), strip(await journalSchedule(plain.server, 'h')), 'the same events');
  t.same((await journalSchedule(hinted.server, 'h')).map((e) => e.status), (await journalSchedule(plain.server, 'h')).map((e) => e.status));
});

t.test('realism: gateway timeouts in several styles', async (t) => {
  const { server } = await recorded(t, { HAZARD__LATENCY__SEARCH_PRODUCT: 'on', HAZARD_MAX_CONSECUTIVE: '99' });
  const timeouts: Reply<any>[] = [];
  for (let i = 0; i < 40; i++) {
    const reply = await server.call('retail', 'search_product', { query: 'lamp' }, 'r');
    if (reply.status === 504) timeouts.push(reply);
  }
  t.ok(timeouts.some((r) => /text\/html/.test(String(r.headers['content-type'])) && /504 Gateway Time-out/.test(r.text) && /nginx/.test(r.text)), 'an nginx 504 page');
  const json = timeouts.filter((r) => /json/.test(String(r.headers['content-type'])));
  t.ok(json.length > 0 && json.every((r) => r.body.message === 'Endpoint request timed out'), 'an API gateway 504');
  const ids = json.map((r) => r.headers['x-amzn-requestid']);
  t.equal(new Set(ids).size, ids.length, 'request ids differ between calls');
  t.ok(timeouts.every((r) => !/problem\+json/.test(String(r.headers['content-type']))), 'the gateway speaks, not the API');
});
