import t from 'tap';
import { expectHintsOnly, expectSeededSchedule, type JournalEntry, type Obj, type Script } from '../helpers/hazards.js';
import { findUser, retailFixture } from '../helpers/retail.js';
import { startServer } from '../helpers/server.js';

// stale_data on view_cart: an answer from an old cache (total ≠ sum of the line totals, an old
// as_of, cache HIT). Retryable: never more than max_consecutive stale answers in a row. Where fresh answers
// carry as_of and cache too (a read cache in front of the carts), the stale answer sets them in their places.

type Test = Parameters<typeof startServer>[0];

const cents = (amount: number) => Math.round(amount * 100);
const sumOfLines = (cart: Obj) => cart['items'].reduce((sum: number, line: Obj) => sum + cents(line['line_total']), 0);
const consistent = (cart: Obj) => cents(cart['total']) === sumOfLines(cart);
const withoutTotal = ({ total, ...rest }: Obj) => rest;
const withoutAsOf = ({ as_of, ...rest }: Obj) => rest;
/** An answer without the read cache's members, which say when and how each answer was read. */
const withoutCache = ({ as_of, cache, ...rest }: Obj) => rest;

const fixture = retailFixture();
const shopper = findUser((u) => (fixture.carts[u.user_id]?.items.length ?? 0) >= 2);
const noCart = findUser((u) => fixture.carts[u.user_id] === undefined);
const CART = { user_id: shopper.user_id };
const ON = { HAZARD__STALE_DATA__VIEW_CART: 'on' };
const HINT = 'This answer came from a stale cache.';

const canonicalOf = async (t: Test) => (await (await startServer(t)).call('retail', 'view_cart', CART)).body as Obj;

t.test('fires when enabled, and only then', async (t) => {
  const canonical = await canonicalOf(t);
  t.ok(consistent(canonical), 'hazards off: the total is the sum of the lines');

  const none = await startServer(t, { hazardEnv: { HAZARDS: 'none' } });
  for (let i = 0; i < 3; i++)
    t.same(withoutCache((await none.call('retail', 'view_cart', CART)).body), withoutCache(canonical), `HAZARDS=none, call ${i + 1}: canonical`);

  const server = await startServer(t, { hazardEnv: ON });
  const session = await server.newSession({ id: 'st' });
  const bodies: Obj[] = [];
  for (let i = 0; i < 6; i++) bodies.push((await server.call('retail', 'view_cart', CART, session)).body);
  t.same(
    bodies.map((b) => !consistent(b)),
    [true, true, false, true, true, false],
    'p=1: two stale answers, then a fresh one',
  );
  const user = (await server.call('retail', 'get_user_details', CART, session)).body;
  const off = await startServer(t);
  t.same(user, (await off.call('retail', 'get_user_details', CART)).body, 'other tools are untouched');

  // Nothing to be inconsistent about: an empty cart is answered as is, and does not count as stale.
  const empty = (await server.call('retail', 'view_cart', { user_id: noCart.user_id }, session)).body;
  t.match(empty, { user_id: noCart.user_id, items: [], item_count: 0, total: 0 });
  t.same(withoutCache(empty), withoutCache((await off.call('retail', 'view_cart', { user_id: noCart.user_id })).body), 'as a clean server answers it');
  const journal = await server.journal<JournalEntry>(session);
  t.same(journal.at(-1)!.hazards, [], 'no stale_data recorded for the empty cart');
  t.same(journal.at(-2)!.hazards, [], 'nor for the other tool');
});

t.test('the journal records the stale field', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARDS: 'stale_data' } });
  const session = await server.newSession({ id: 'st' });
  for (let i = 0; i < 3; i++) await server.call('retail', 'view_cart', CART, session);
  const journal = await server.journal<JournalEntry>(session);
  const event = {
    kind: 'stale_data',
    family: 'output',
    tool: 'view_cart',
    recovery: 'add up the line totals (or read the cart again until the total is their sum)',
    hint: HINT,
    retryable: true,
    field: 'total',
  };
  t.same(
    journal.map((e) => e.hazards),
    [[{ ...event, call: 1 }], [{ ...event, call: 2 }], []],
  );
});

t.test('recovery: the stale answer is detectably inconsistent, and a retry within max_consecutive+1 calls is consistent', async (t) => {
  const canonical = await canonicalOf(t);
  for (const [max, pattern] of [
    [undefined, [true, true, false, true, true, false]],
    ['1', [true, false, true, false, true, false]],
    ['3', [true, true, true, false, true, true]],
  ] as const) {
    const server = await startServer(t, { hazardEnv: { ...ON, ...(max ? { HAZARD_MAX_CONSECUTIVE: max } : {}) } });
    const session = await server.newSession({ id: 'st' });
    const bodies: Obj[] = [];
    for (let i = 0; i < pattern.length; i++) bodies.push((await server.call('retail', 'view_cart', CART, session)).body);
    t.same(
      bodies.map((b) => !consistent(b)),
      pattern,
      `max_consecutive ${max ?? '2 (default)'}: the retry after ${max ?? 2} stale answers is fresh`,
    );
    const journal = await server.journal<JournalEntry>(session);
    const now = Date.parse((await server.request('GET', `/sessions/${session}`)).body.clock.now);
    for (const [i, body] of bodies.entries()) {
      if (consistent(body)) {
        t.same(withoutCache(body), withoutCache(canonical), `call ${i + 1}: the fresh answer is canonical`);
        continue;
      }
      const { total, as_of, cache, ...rest } = body;
      t.not(cents(total), sumOfLines(body), `call ${i + 1}: the total ${total} is not the sum of the lines ${sumOfLines(body) / 100}`);
      t.same(rest, withoutTotal(withoutCache(canonical)), 'the lines themselves are current');
      t.same(Object.keys(body).slice(0, Object.keys(canonical).length), Object.keys(canonical), "the fresh answer's members, in their places");
      t.equal(cache, 'HIT');
      const age = Date.parse(journal[i]!.at) - Date.parse(as_of);
      t.ok(age >= 20 * 60_000 && age <= 91 * 60_000, `as_of is ${Math.round(age / 60_000)} minutes before the call`);
      t.ok(Date.parse(as_of) < now, 'and older than the session clock');
    }
  }

  // A session whose clock is elsewhere and moves fast: as_of follows the session clock, not the machine's.
  const fast = await startServer(t, { hazardEnv: ON });
  const clocked = await fast.newSession({ id: 'clk', clock: { start: '2031-02-03T10:00:00Z', step_ms: 600_000 } });
  for (let i = 0; i < 2; i++) {
    const body = (await fast.call('retail', 'view_cart', CART, clocked)).body;
    const now = Date.parse((await fast.request('GET', `/sessions/${clocked}`)).body.clock.now);
    const age = now - Date.parse(body.as_of);
    t.ok(age >= 20 * 60_000 && age <= 90 * 60_000, `call ${i + 1}: as_of ${body.as_of} is ${Math.round(age / 60_000)} minutes before the session clock`);
  }

  // At p=0.5, over many calls: never more than two stale answers in a row.
  const server = await startServer(t, { hazardEnv: { HAZARD__STALE_DATA__VIEW_CART: '0.5', HAZARD_SEED: '9' } });
  const session = await server.newSession({ id: 'st' });
  let streak = 0;
  let longest = 0;
  for (let i = 0; i < 40; i++) {
    const body = (await server.call('retail', 'view_cart', CART, session)).body;
    streak = consistent(body) ? 0 : streak + 1;
    longest = Math.max(longest, streak);
    if (streak === 0) t.same(withoutCache(body), withoutCache(canonical), `call ${i + 1}: fresh and canonical`);
  }
  t.ok(longest >= 1 && longest <= 2, `longest run of stale answers: ${longest}`);
});

/** Sixteen calls of view_cart. */
const SCRIPT: Script = { rounds: 16, round: () => [['view_cart', CART]] };
const SEEDED = { HAZARD__STALE_DATA: '0.5', HAZARD_SEED: '1' };

t.test('the schedule is seeded: same seed, same schedule; another seed, another one; other sessions do not matter', async (t) => {
  const { first, crowded } = await expectSeededSchedule(t, {
    env: SEEDED,
    script: SCRIPT,
    messages: {
      restartBodies: 'and the same answers (same stale totals and as_of)',
      crowdedEvents: "other sessions' calls do not change the session's schedule (nor its streaks)",
      // as_of is relative to the session's clock, which counts this session's calls only.
      crowdedBodies: 'as_of included',
    },
  });
  t.same(crowded.bodies.map(withoutAsOf), first.bodies.map(withoutAsOf));
});

t.test('hints mode: the same schedule, only `_hint` added', async (t) => {
  await expectHintsOnly(t, { env: SEEDED, script: SCRIPT, hint: HINT });
});
