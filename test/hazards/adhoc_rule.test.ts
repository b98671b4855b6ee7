import t from 'tap';
import {
  canonicalRetailDocument,
  expectHintsKeepDraws,
  expectSeededSessionDraws,
  lastEntry,
  probeSessions,
  sessionIds,
  toolIn,
  toolViews,
  type JournalEntry,
  type Probe,
  type SessionDraws,
} from '../helpers/hazards.js';
import { findOrder, findUser } from '../helpers/retail.js';
import { startServer, type TestServer } from '../helpers/server.js';

// adhoc_rule (specification, session-wide): a parameter must follow a convention, stated in the
// tool's description only while the rule is on; a violation gets a terse 422, a conforming value
// is accepted and the tool acts on the canonical one. Retail: track_order (order id without '#'),
// modify_pending_order_address and modify_user_address (country as ISO alpha-2, stored 'USA').

const RULES = {
  track_order: { param: 'order_id', rule: "Order ids are sent without the leading '#'", message: 'order_id: invalid format' },
  modify_pending_order_address: {
    param: 'country',
    rule: 'Countries are sent as ISO 3166-1 alpha-2 codes',
    message: 'country: expected ISO 3166-1 alpha-2 code',
  },
  modify_user_address: { param: 'country', rule: 'Countries are sent as ISO 3166-1 alpha-2 codes', message: 'country: expected ISO 3166-1 alpha-2 code' },
} as const;
const RULED = Object.keys(RULES) as (keyof typeof RULES)[];

const order = findOrder((o) => o.status === 'pending');
const bare = order.order_id.slice(1);
const mover = findUser((u) => u.address.country === 'USA');
const newAddress = { address1: '12 Harbor Road', address2: 'Suite 4', city: 'Boston', state: 'MA', zip: '02110' };
/** The pending order shipped to the new address instead, its country written as the profiles write it. */
const reroute = (country: string) => ({ order_id: order.order_id, ...newAddress, country });
const canonicalDocument = canonicalRetailDocument();

/** Whether the rule of track_order is on in a session, as its listing says. */
const documented = async (server: TestServer, session: string) => {
  const listed = (await server.request('GET', `/s/${session}/retail/tools?format=openai`)).body as { function: { name: string; description: string } }[];
  return listed.find((e) => e.function.name === 'track_order')!.function.description.includes(RULES.track_order.rule);
};
/** Whether a session's track_order refuses the '#' form (and takes the bare one): the rule acts. */
const enforced = async (server: TestServer, session: string) =>
  (await server.call('retail', 'track_order', { order_id: order.order_id }, session)).status === 422;

const SESSIONS = sessionIds('rule');
const SEEDED = { HAZARDS: 'adhoc', HAZARD_RATE: '0.5', HAZARD_SEED: '7' };

/** A session's [documented, enforced]. */
const draw: Probe<[boolean, boolean]> = async (server, session) => [await documented(server, session), await enforced(server, session)];
const schedule = (server: TestServer, sessions = SESSIONS) => probeSessions(server, sessions, draw);
const DRAWS: SessionDraws<[boolean, boolean]> = { env: SEEDED, sessions: SESSIONS, probe: draw, isOn: ([on]) => on };

t.test('adhoc_rule fires only when enabled, and only on the tools it is enabled for', async (t) => {
  const off = await startServer(t);
  const offViews = await toolViews(off, 'plain');
  for (const [view, listed] of Object.entries(offViews)) {
    for (const tool of RULED) t.notMatch(toolIn(listed, tool).description, /Note:/, `off, ${view}: ${tool} states no convention`);
  }
  t.same((await off.request('GET', '/s/plain/retail/openapi.json')).body, canonicalDocument, 'off: the session OpenAPI is the canonical document');
  const tracked = await off.call('retail', 'track_order', { order_id: order.order_id }, 'plain');
  t.same([tracked.status, tracked.body.order_id], [200, order.order_id], "off: the '#' form is the canonical one");
  t.equal((await off.call('retail', 'track_order', { order_id: bare }, 'plain')).status, 404, 'off: the bare form names no order');
  t.equal((await off.call('retail', 'modify_pending_order_address', reroute('USA'), 'plain')).status, 200, "off: 'USA' is accepted for an order");
  t.equal(
    (await off.call('retail', 'modify_user_address', { user_id: mover.user_id, ...newAddress, country: 'USA' }, 'plain')).status,
    200,
    "off: 'USA' is accepted",
  );
  t.ok(
    (await off.journal<JournalEntry>('plain')).every((entry) => entry.hazards.length === 0),
    'off: nothing is journaled as a hazard',
  );

  // Only track_order's rule: the other two tools keep their contract and their behaviour.
  const one = await startServer(t, { hazardEnv: { HAZARD__ADHOC_RULE__TRACK_ORDER: 'on', HAZARD_SEED: '1' } });
  const oneViews = await toolViews(one, 'one');
  for (const [view, listed] of Object.entries(oneViews)) {
    t.match(toolIn(listed, 'track_order').description, RULES.track_order.rule, `${view}: track_order states its rule`);
    t.same(
      listed.filter((tool) => tool.name !== 'track_order'),
      offViews[view]!.filter((tool) => tool.name !== 'track_order'),
      `${view}: every other tool is canonical`,
    );
  }
  t.equal((await one.call('retail', 'track_order', { order_id: order.order_id }, 'one')).status, 422, "on: the '#' form breaks the rule");
  t.equal((await one.call('retail', 'modify_pending_order_address', reroute('USA'), 'one')).status, 200, "order's country: untouched");
  t.equal(
    (await one.call('retail', 'modify_user_address', { user_id: mover.user_id, ...newAddress, country: 'USA' }, 'one')).status,
    200,
    'country: untouched',
  );

  // The same server, a session that switches the kind off: canonical again.
  const quiet = await one.newSession({ id: 'quiet', hazards: { kinds: { adhoc_rule: 'off' } } });
  t.same(await toolViews(one, quiet), offViews, 'a session with adhoc_rule off sees the canonical listings and document');
  t.equal((await one.call('retail', 'track_order', { order_id: order.order_id }, quiet)).status, 200, "that session's calls are canonical");
});

t.test('adhoc_rule: documented while on, a terse 422 that changes nothing, then the reformatted value acts canonically', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARDS: 'adhoc', HAZARD_SEED: '1' } });
  const session = await server.newSession({ id: 'rules' });

  // The convention in every format and in the session's OpenAPI: in the description and on the parameter.
  for (const [view, listed] of Object.entries(await toolViews(server, session))) {
    for (const tool of RULED) {
      const { description, input } = toolIn(listed, tool);
      const { param, rule } = RULES[tool];
      t.match(description, `Note: ${rule}`, `${view}: ${tool} states the convention`);
      t.notMatch(description, /hint/i, `${view}: no hint without hints mode`);
      t.type(input.properties[param]?.description, 'string', `${view}: ${tool}.${param} is described`);
    }
    t.match(toolIn(listed, 'track_order').input.properties['order_id']!.description, "without the leading '#'", `${view}: order_id says the new form`);
    t.notMatch(
      toolIn(listed, 'track_order').input.properties['order_id']!.description,
      "The leading '#' is part of the id",
      `${view}: and not the contradicting one`,
    );
    t.match(toolIn(listed, 'modify_user_address').input.properties['country']!.description, /alpha-2 code, e\.g\. 'US'/, `${view}: country says the new form`);
    t.notMatch(toolIn(listed, 'modify_user_address').input.properties['country']!.description, "'USA'", `${view}: and not the old example`);
    t.match(
      toolIn(listed, 'modify_pending_order_address').input.properties['country']!.description,
      /alpha-2 code, e\.g\. 'US'/,
      `${view}: so does the order's`,
    );
  }

  const before = await server.state(session);

  // track_order: the '#' form gets a terse 422; the bare id is accepted and names the order.
  const refused = await server.call('retail', 'track_order', { order_id: order.order_id }, session);
  t.equal(refused.status, 422);
  t.match(refused.headers['content-type'], /application\/problem\+json/);
  t.match(refused.body, { status: 422, code: 'invalid_format', detail: RULES.track_order.message, field: 'order_id' }, 'terse: names the field, not the rule');
  t.notOk('hint' in refused.body, 'no hint without hints mode');
  t.match(await lastEntry(server, session), {
    tool: 'track_order',
    call: 1,
    status: 422,
    changes: [],
    hazards: [
      {
        kind: 'adhoc_rule',
        family: 'specification',
        tool: 'track_order',
        call: 1,
        param: 'order_id',
        value: order.order_id,
        recovery: /without the leading '#'/,
        hint: /track|order_id/,
        retryable: false,
      },
    ],
  });
  const tracked = await server.call('retail', 'track_order', { order_id: bare }, session);
  t.same([tracked.status, tracked.body.order_id, tracked.body.order_status], [200, order.order_id, order.status], "the bare id acts on the canonical '#' id");
  t.same((await lastEntry(server, session)).hazards, [], 'an accepted call records no hazard');

  // modify_pending_order_address: 'USA' refused; checked with the other address write below.
  const rerouted = await server.call('retail', 'modify_pending_order_address', reroute('USA'), session);
  t.match([rerouted.status, rerouted.body], [422, { detail: RULES.modify_pending_order_address.message, field: 'country' }], "order's 'USA': 422");
  t.match((await lastEntry(server, session)).hazards, [{ kind: 'adhoc_rule', tool: 'modify_pending_order_address', param: 'country', value: 'USA' }]);

  // modify_user_address: 'USA' is refused and changes nothing; 'US' is stored as 'USA'.
  const usa = await server.call('retail', 'modify_user_address', { user_id: mover.user_id, ...newAddress, country: 'USA' }, session);
  t.match([usa.status, usa.body], [422, { detail: RULES.modify_user_address.message, field: 'country' }], "'USA': 422");
  t.match(await lastEntry(server, session), { status: 422, changes: [], hazards: [{ kind: 'adhoc_rule', param: 'country', value: 'USA' }] });
  t.same(await server.state(session), before, 'the refused calls changed nothing');
  const moved = await server.call('retail', 'modify_user_address', { user_id: mover.user_id, ...newAddress, country: 'US' }, session);
  t.equal(moved.status, 200);
  t.same(moved.body.address, { ...newAddress, country: 'USA' }, "'US' is accepted and stored as 'USA'");
  t.same((await server.state(session))['retail'].users[mover.user_id].address, { ...newAddress, country: 'USA' }, "the database holds 'USA'");
  const write = await lastEntry(server, session);
  t.same(write.hazards, [], 'accepted: no hazard');
  t.ok(write.changes.length > 0, 'and the change is journaled once');
  t.equal(
    (await server.journal<JournalEntry>(session)).filter((entry) => entry.tool === 'modify_user_address' && entry.changes.length > 0).length,
    1,
    'one write in all',
  );
  const shipsTo = await server.call('retail', 'modify_pending_order_address', reroute('US'), session);
  t.same([shipsTo.status, shipsTo.body.address], [200, { ...newAddress, country: 'USA' }], "the order's 'US' is stored as 'USA' too");

  // The environment's setting reaches every session, "default" (no prefix) included: its document and calls agree.
  t.match(
    (await server.request('GET', '/retail/openapi.json')).body.paths['/retail/tools/track_order'].post.description,
    RULES.track_order.rule,
    'the default document states the rule',
  );
  t.equal((await server.call('retail', 'track_order', { order_id: order.order_id })).status, 422, 'and the default session enforces it');
});

t.test('adhoc_rule: seeded per session, the same across restarts, independent of other sessions', async (t) => {
  await expectSeededSessionDraws(t, {
    ...DRAWS,
    otherSeed: '8',
    eachSession: (t, [listed, acts], session) => t.equal(listed, acts, `${session}: the listing documents the rule exactly when it acts`),
    // Busy neighbours: other sessions call the same tools first, in a different order; the schedule holds.
    neighboursFirst: {
      sessions: ['noise-a', 'noise-b', 'noise-c'],
      script: {
        rounds: 3,
        round: () => [
          ['track_order', { order_id: bare }],
          ['modify_pending_order_address', reroute('US')],
        ],
      },
    },
    messages: {
      split: 'have the rule and some do not',
      restart: 'a restart with the same seed gives the same sessions the rule',
      reseeded: 'another seed gives another schedule',
    },
  });

  // A session with its own seed: its schedule is the seed's, whatever its id and the server's seed.
  const seeded = await startServer(t, { hazardEnv: SEEDED });
  const ids = await Promise.all(['s1', 's2'].map((id) => seeded.newSession({ id, seed: 'forty-two' })));
  const twin = await startServer(t, { hazardEnv: { ...SEEDED, HAZARD_SEED: 'another' } });
  const others = await Promise.all(['t1', 't2'].map((id) => twin.newSession({ id, seed: 'forty-two' })));
  const [mine, theirs] = [await schedule(seeded, ids), await schedule(twin, others)];
  t.same(mine, theirs, "a session's own seed fixes its schedule, whatever its id and the server's seed");
  t.same(mine[0], mine[1], 'two sessions with the same seed meet the same rule');
});

t.test('adhoc_rule: hints mode keeps the schedule and only adds hints', async (t) => {
  const { plain, hinted, session: fresh } = await expectHintsKeepDraws(t, { ...DRAWS, message: 'the same sessions have the rule' });

  const plainViews = await toolViews(plain, fresh);
  const hintViews = await toolViews(hinted, fresh);
  const hint = "Read this tool's description: order_id has a required format.";
  // Each tool's rule is drawn on its own: the tools whose rule is on in this session (track_order's is).
  const ruled = (tool: { name: string; description: string }) => RULED.includes(tool.name as (typeof RULED)[number]) && tool.description.includes('Note: ');
  for (const view of Object.keys(plainViews)) {
    t.ok(ruled(toolIn(plainViews[view]!, 'track_order')), `${view}: track_order's rule is on`);
    for (const tool of plainViews[view]!) {
      const other = toolIn(hintViews[view]!, tool.name);
      if (ruled(tool)) {
        t.match(other.description, / \(Read this tool's description: \w+ has a required format\.\)$/, `${view}: ${tool.name} carries the hint`);
        t.equal(other.description.replace(/ \([^()]*\)$/, ''), tool.description, `${view}: ${tool.name}: only the hint is added`);
        t.same(other.input, tool.input, `${view}: ${tool.name}: same parameters`);
      } else t.same(other, tool, `${view}: ${tool.name} unchanged`);
    }
  }
  const a = await plain.call('retail', 'track_order', { order_id: order.order_id }, fresh);
  const b = await hinted.call('retail', 'track_order', { order_id: order.order_id }, fresh);
  t.same([a.status, b.status], [422, 422]);
  t.same(b.body, { ...a.body, hint }, 'the 422 only gains the hint');
  const [plainEvent, hintEvent] = [(await lastEntry(plain, fresh)).hazards, (await lastEntry(hinted, fresh)).hazards];
  t.same(hintEvent, plainEvent, 'the journal is the same (it always carries the hint)');
  t.equal(hintEvent[0]!.hint, hint);
  t.equal((await hinted.call('retail', 'track_order', { order_id: bare }, fresh)).status, 200, 'the recovery is the same');
});
