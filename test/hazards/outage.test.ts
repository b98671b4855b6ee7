import t from 'tap';
import { drawStatuses, expectSeededStatusDraws, startHintedPair, type JournalEntry } from '../helpers/hazards.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { findOrder, retailFixture } from '../helpers/retail.js';
import type { Order } from '../../domains/retail/schema.js';
import { retailHazards } from '../../domains/retail/hazards/index.js';

const db = retailFixture();
const shipped = findOrder((o) => o.status === 'delivered' && o.fulfillments.length > 0);
const product = Object.values(db.products).find((p) => Object.values(p.variants).some((v) => v.available))!;
const ARGS = {
  track_order: { order_id: shipped.order_id },
  search_product: { query: product.name },
  transfer_to_human_agents: { summary: 'The customer wants to speak to a person about a refund.' },
} as const;
type Down = keyof typeof ARGS;
const FALLBACK: Record<Down, string | null> = { track_order: 'get_order_details', search_product: 'list_all_product_types', transfer_to_human_agents: null };
/** The recovery each scenario declares (the journal records it). */
const RECOVERY = Object.fromEntries(retailHazards.flatMap((scenario) => (scenario.kind === 'outage' ? [[scenario.tool, scenario.recovery]] : []))) as Record<
  Down,
  string
>;
const hintOf = (tool: Down) =>
  FALLBACK[tool] ? `This tool is down for now; ${FALLBACK[tool]} can answer instead.` : 'This tool is down for now and has no substitute.';
const envFor = (tool: Down, value = 'on') => ({ [`HAZARD__OUTAGE__${tool.toUpperCase()}`]: value });

const diffOf = async (server: TestServer, session: string) => (await server.request('GET', `/sessions/${session}/diff`)).body as Record<string, unknown[]>;

t.test('fires only when enabled, on the tool it is set for, and no other kind', async (t) => {
  const off = await startServer(t);
  for (const tool of Object.keys(ARGS) as Down[]) {
    t.equal((await off.call('retail', tool, ARGS[tool], 'o')).status, 200, `off: ${tool} answers`);
    const server = await startServer(t, { hazardEnv: envFor(tool) });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await server.call('retail', tool, ARGS[tool], 'd')).status);
    t.same(statuses, [503, 503, 503, 503, 503, 503], `on: every call of ${tool} fails, well past max_consecutive`);
    for (const other of Object.keys(ARGS) as Down[]) {
      if (other !== tool) t.equal((await server.call('retail', other, ARGS[other], 'd')).status, 200, `${other}: not switched on, answers`);
    }
    t.equal((await server.call('retail', 'get_order_details', { order_id: shipped.order_id }, 'd')).status, 200, 'get_order_details answers');
    const kinds = new Set((await server.journal<JournalEntry>('d')).flatMap((e) => e.hazards.map((h) => `${h.kind} ${h.tool}`)));
    t.same([...kinds], [`outage ${tool}`], 'no other kind, no other tool');
  }
  const all = await startServer(t, { hazardEnv: { HAZARDS: 'outage' } });
  for (const tool of Object.keys(ARGS) as Down[]) t.equal((await all.call('retail', tool, ARGS[tool], 'a')).status, 503, `HAZARDS=outage: ${tool} is down`);
  t.equal(
    (await all.call('retail', 'get_order_details', { order_id: shipped.order_id }, 'a')).status,
    200,
    'HAZARDS=outage: a tool without a scenario answers',
  );
});

t.test('the journal records kind, family, call, the scenario’s recovery, hint, fallback and incident', async (t) => {
  for (const tool of Object.keys(ARGS) as Down[]) {
    const server = await startServer(t, { hazardEnv: envFor(tool) });
    for (let i = 0; i < 3; i++) await server.call('retail', tool, ARGS[tool], 'j');
    const journal = await server.journal<JournalEntry>('j');
    const incident = journal[0]!.hazards[0]!['incident'];
    t.match(incident, /^INC-\d{5}$/);
    journal.forEach((entry, i) => {
      t.equal(entry.status, 503);
      t.equal(entry.result, undefined, 'no result');
      t.same(entry.changes, []);
      t.match(entry.problem, { status: 503, code: 'service_unavailable', incident });
      t.same(
        entry.hazards,
        [
          {
            kind: 'outage',
            family: 'execution',
            tool,
            call: i + 1,
            recovery: RECOVERY[tool],
            hint: hintOf(tool),
            retryable: false,
            fallback: FALLBACK[tool],
            incident,
          },
        ],
        `${tool} call ${i + 1}`,
      );
    });
  }
});

t.test('recovery: track_order is down, get_order_details has the status and the packages', async (t) => {
  const off = await startServer(t);
  const server = await startServer(t, { hazardEnv: envFor('track_order') });
  const tracked = (await off.call('retail', 'track_order', { order_id: shipped.order_id })).body;
  for (let i = 0; i < 4; i++) t.equal((await server.call('retail', 'track_order', { order_id: shipped.order_id }, 'r')).status, 503, 'down, every call');
  const tracking_id = shipped.fulfillments[0]!.tracking_id[0]!;
  t.equal((await server.call('retail', 'track_order', { order_id: shipped.order_id, tracking_id }, 'r')).status, 503, 'whatever the arguments');
  const details = await server.call('retail', 'get_order_details', { order_id: shipped.order_id }, 'r');
  t.equal(details.status, 200, 'the fallback answers');
  const order = details.body as Order;
  t.equal(order.status, tracked.order_status, "the order's status, as tracking would give it");
  t.same(
    order.fulfillments.flatMap((f) => f.tracking_id).sort(),
    tracked.shipments.map((s: { tracking_id: string }) => s.tracking_id).sort(),
    'and every package by its tracking id',
  );
});

t.test('recovery: search_product is down, list_all_product_types then get_product_details find the product', async (t) => {
  const off = await startServer(t);
  const server = await startServer(t, { hazardEnv: envFor('search_product') });
  const found = (await off.call('retail', 'search_product', ARGS.search_product)).body.results.map((r: { product_id: string }) => r.product_id);
  t.ok(found.includes(product.product_id), 'without the outage, search finds it');
  for (let i = 0; i < 4; i++)
    t.equal((await server.call('retail', 'search_product', { query: product.name, limit: 5 + i }, 'r')).status, 503, 'down, every call');
  const types = await server.call('retail', 'list_all_product_types', {}, 'r');
  t.equal(types.status, 200, 'the fallback answers');
  const byName = JSON.parse(types.body as string) as Record<string, string>;
  t.equal(byName[product.name], product.product_id, 'it names the product');
  const details = await server.call('retail', 'get_product_details', { product_id: byName[product.name] }, 'r');
  t.equal(details.status, 200);
  t.equal(details.body.product_id, product.product_id);
  t.same(Object.keys(details.body.variants).sort(), Object.keys(product.variants).sort(), 'with its items');
});

t.test('recovery: transfer_to_human_agents is down, with no fallback; the failure is honest and nothing changes', async (t) => {
  const server = await startServer(t, { hazardEnv: envFor('transfer_to_human_agents') });
  for (let i = 0; i < 5; i++) {
    const reply = await server.call('retail', 'transfer_to_human_agents', ARGS.transfer_to_human_agents, 'r');
    t.equal(reply.status, 503, 'a 503');
    t.match(reply.headers['content-type'], /^application\/problem\+json/, 'as the API’s problem JSON');
    t.match(reply.body, { status: 503, code: 'service_unavailable', detail: /transfer_to_human_agents is temporarily unavailable/ });
    t.notMatch(reply.text, /success/i, 'never a claim of success');
  }
  t.same(await diffOf(server, 'r'), Object.fromEntries(Object.keys(await diffOf(server, 'r')).map((d) => [d, []])), 'no database changed');
  t.ok(
    (await server.journal<JournalEntry>('r')).every((e) => e.hazards[0]?.['fallback'] === null && e.result === undefined),
    'journaled: no fallback, no result',
  );
  const reset = await server.request('POST', '/sessions/r/reset');
  t.ok(reset.status < 300, 'the session is reset');
  t.equal(
    (await server.call('retail', 'transfer_to_human_agents', ARGS.transfer_to_human_agents, 'r')).status,
    503,
    'the outage belongs to the session: still down after a reset',
  );
  t.equal((await server.call('retail', 'transfer_to_human_agents', ARGS.transfer_to_human_agents, 'another')).status, 503, 'at p=1, down in every session');
});

/** Whether track_order is down in each of 16 sessions: on every call or on none. */
const DOWN = { count: 16, call: ['track_order', ARGS.track_order], hitStatus: 503, whole: 'down for the whole session or not at all' } as const;

t.test('the schedule: drawn once per session, fixed by seed and session id', async (t) => {
  const first = await expectSeededStatusDraws(t, {
    ...DOWN,
    env: { ...envFor('track_order', '0.5'), HAZARD_SEED: '17' },
    otherSeed: '18',
    messages: { split: 'are down', reseeded: 'another seed takes other sessions down' },
  });
  const rated = await drawStatuses(t, { HAZARDS: 'outage', HAZARD_RATE: '0.5', HAZARD_SEED: '17' }, DOWN);
  t.same(rated, first, 'HAZARDS=outage at HAZARD_RATE=0.5 draws the same schedule');

  // One incident per outage: the same id on each call of a session, another in another session.
  const server = await startServer(t, { hazardEnv: envFor('track_order') });
  const incidents = new Map<string, Set<string>>();
  for (const session of ['i1', 'i2', 'i3']) {
    for (let k = 0; k < 3; k++) {
      const reply = await server.call('retail', 'track_order', ARGS.track_order, session);
      incidents.set(session, (incidents.get(session) ?? new Set()).add(reply.body.incident));
    }
  }
  t.ok(
    [...incidents.values()].every((ids) => ids.size === 1),
    'one incident id per session',
  );
  t.equal(new Set([...incidents.values()].map((ids) => [...ids][0])).size, 3, 'a different id in each session');
});

t.test('hints mode: the same schedule, and only a hint member is added', async (t) => {
  const env = { HAZARD__OUTAGE: '0.5', HAZARD_SEED: '6' };
  const { plain, hinted } = await startHintedPair(t, env);
  let down = 0;
  for (let i = 0; i < 8; i++) {
    for (const tool of Object.keys(ARGS) as Down[]) {
      const a = await plain.call('retail', tool, ARGS[tool], `h${i}`);
      const b = await hinted.call('retail', tool, ARGS[tool], `h${i}`);
      t.equal(b.status, a.status, `h${i} ${tool}: same status`);
      if (a.status === 503) {
        down += 1;
        t.same(b.body, { ...a.body, hint: hintOf(tool) }, 'the same problem, plus hint');
        t.notOk('hint' in a.body, 'no hint without hints mode');
        t.equal(b.headers['retry-after'], a.headers['retry-after']);
      } else t.same(b.body, a.body, 'the same answer');
    }
    t.same(
      (await hinted.journal<JournalEntry>(`h${i}`)).map((e) => e.hazards),
      (await plain.journal<JournalEntry>(`h${i}`)).map((e) => e.hazards),
      'the same journal',
    );
  }
  const calls = 8 * Object.keys(ARGS).length;
  t.ok(down > 3 && down < calls - 3, `some calls down, not all (${down} of ${calls})`);
});

t.test('realism: a 503 in the API’s problem JSON, with Retry-After and an incident', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARDS: 'outage' } });
  for (const tool of Object.keys(ARGS) as Down[]) {
    const reply = await server.call('retail', tool, ARGS[tool], 'r');
    t.equal(reply.status, 503);
    t.match(reply.headers['content-type'], /^application\/problem\+json/);
    t.equal(reply.headers['retry-after'], '3600', 'Retry-After: a long time, not a blip');
    t.same(Object.keys(reply.body).sort(), ['code', 'detail', 'incident', 'status', 'title', 'type']);
    t.match(reply.body, {
      type: '/problems/service-unavailable',
      title: 'Service Unavailable',
      status: 503,
      code: 'service_unavailable',
      detail: `${tool} is temporarily unavailable due to an incident. Retrying will not help until it is resolved.`,
      incident: /^INC-\d{5}$/,
    });
  }
});
