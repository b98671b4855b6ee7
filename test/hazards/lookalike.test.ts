import { Validator } from '@seriousme/openapi-schema-validator';
import t from 'tap';
import { domains } from '../../domains/index.js';
import { retail } from '../../domains/retail/index.js';
import {
  canonicalRetailDocument,
  expectHintsKeepDraws,
  expectSeededSessionDraws,
  lastEntry,
  sessionIds,
  toolViews,
  type JournalEntry,
  type Probe,
  type SessionDraws,
} from '../helpers/hazards.js';
import { findOrder } from '../helpers/retail.js';
import { startServer, type TestServer } from '../helpers/server.js';

// lookalike (specification, session-wide): deprecated twins of a tool are listed beside it and
// answer with partial data and a deprecation notice; outside the hazard they do not exist.
// Retail: get_order_info (twin of get_order_details), search_products_legacy (of search_product).

/** Every domain's decoys (HAZARDS=lookalike lists them all, in the combined view too). */
const ALL_DECOYS = new Set(domains.flatMap((domain) => (domain.hazards ?? []).flatMap((s) => (s.kind === 'lookalike' ? [s.decoy.name] : []))));
const DECOYS = { get_order_details: 'get_order_info', search_product: 'search_products_legacy' } as const;
const names = retail.tools.map((tool) => tool.name);
const order = findOrder((o) => o.status === 'delivered' && o.fulfillments.length > 0);
const canonicalDocument = canonicalRetailDocument();

/** Names and descriptions of a session's tools in each listing format and in its OpenAPI document. */
async function views(server: TestServer, session: string) {
  const all = await toolViews(server, session);
  return Object.fromEntries(Object.entries(all).map(([view, listed]) => [view, listed.map(({ name, description }) => ({ name, description }))]));
}
const listedNames = async (server: TestServer, session: string) =>
  ((await server.request('GET', `/s/${session}/retail/tools?format=openai`)).body as { function: { name: string } }[]).map((e) => e.function.name);

const SESSIONS = sessionIds('twin');
const SEEDED = { HAZARD__LOOKALIKE__GET_ORDER_DETAILS: '0.5', HAZARD_SEED: '2' };

/** A session's [decoy listed, decoy answers]. */
const draw: Probe<[boolean, boolean]> = async (server, session) => {
  const listed = (await listedNames(server, session)).includes('get_order_info');
  const answers = (await server.call('retail', 'get_order_info', { order_id: order.order_id }, session)).status === 200;
  return [listed, answers];
};
const DRAWS: SessionDraws<[boolean, boolean]> = { env: SEEDED, sessions: SESSIONS, probe: draw, isOn: ([on]) => on };

t.test('lookalike fires only when enabled: otherwise the decoys are neither listed nor routes', async (t) => {
  const off = await startServer(t);
  for (const [view, listed] of Object.entries(await views(off, 'plain')))
    t.same(
      listed.map((tool) => tool.name),
      names,
      `off, ${view}: the canonical tools only`,
    );
  t.same((await off.request('GET', '/s/plain/retail/openapi.json')).body, canonicalDocument, 'off: the canonical document');
  for (const decoy of Object.values(DECOYS)) {
    const reply = await off.call('retail', decoy, {}, 'plain');
    t.equal(reply.status, 404, `off: ${decoy} is a 404`);
    t.match(reply.body, { code: 'unknown_tool', detail: `No tool '${decoy}' in domain 'retail'.` }, 'an unknown tool, like any other');
  }
  t.match(
    await off.journal<JournalEntry>('plain'),
    Object.values(DECOYS).map((decoy) => ({ tool: decoy, call: 0, status: 404, problem: { code: 'unknown_tool' }, hazards: [] })),
    'off: journaled as calls of unknown tools, like any other',
  );

  const one = await startServer(t, { hazardEnv: { HAZARD__LOOKALIKE__GET_ORDER_DETAILS: 'on', HAZARD_SEED: '1' } });
  const oneViews = Object.entries(await views(one, 'one'));
  for (const [view, listed] of oneViews) {
    const listedNames = listed.map((tool) => tool.name);
    t.same(
      listedNames.filter((name) => name !== 'get_order_info'),
      names,
      `${view}: the canonical tools in their order, and no other decoy`,
    );
    t.equal(listedNames.filter((name) => name === 'get_order_info').length, 1, `${view}: get_order_info once`);
    t.same(
      listedNames,
      oneViews[0]![1].map((tool) => tool.name),
      `${view}: in the same place as in ${oneViews[0]![0]}`,
    );
  }
  t.equal((await one.call('retail', 'get_order_info', { order_id: order.order_id }, 'one')).status, 200, 'the enabled decoy answers');
  t.match(
    await one.call('retail', 'search_products_legacy', { keyword: 'lamp' }, 'one'),
    { status: 404, body: { code: 'unknown_tool' } },
    'the other one does not exist',
  );

  const quiet = await one.newSession({ id: 'quiet', hazards: { kinds: { lookalike: 'off' } } });
  t.same(await listedNames(one, quiet), names, 'a session with lookalike off lists no decoy');
  t.same((await one.request('GET', `/s/${quiet}/retail/openapi.json`)).body, canonicalDocument, 'and gets the canonical document');
  t.match(
    await one.call('retail', 'get_order_info', { order_id: order.order_id }, quiet),
    { status: 404, body: { code: 'unknown_tool' } },
    'and a 404 for the decoy',
  );
  t.match(await one.journal<JournalEntry>(quiet), [{ tool: 'get_order_info', call: 0, status: 404, hazards: [] }], 'journaled as an unknown tool');
});

t.test('lookalike: where a decoy is listed is drawn from the seed, not always right after its real tool', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARD__LOOKALIKE__GET_ORDER_DETAILS: 'on' } });
  const places = new Set<number>();
  let after = 0;
  for (let seed = 1; seed <= 12; seed++) {
    const session = await server.newSession({ id: `place-${seed}`, seed: String(seed) });
    const listed = await listedNames(server, session);
    const at = listed.indexOf('get_order_info');
    places.add(at);
    if (listed[at - 1] === 'get_order_details') after += 1;
    t.same(await listedNames(server, session), listed, `seed ${seed}: the same place on every listing`);
  }
  t.ok(places.size >= 4, `12 seeds place the decoy in ${places.size} places`);
  t.ok(after < 6, `right after get_order_details for ${after} of 12 seeds`);
});

t.test('lookalike: decoys listed and documented while on, journaled when called, partial and deprecated; the canonical tool is whole', async (t) => {
  const off = await startServer(t);
  const server = await startServer(t, { hazardEnv: { HAZARDS: 'lookalike', HAZARD_SEED: '1' } });
  const session = await server.newSession({ id: 'twins' });

  const decoyNames = new Set<string>(Object.values(DECOYS));
  for (const [view, listed] of Object.entries(await views(server, session))) {
    t.same(
      listed.map((tool) => tool.name).filter((name) => !decoyNames.has(name)),
      names,
      `${view}: the canonical tools in their order`,
    );
    t.same(
      listed
        .map((tool) => tool.name)
        .filter((name) => decoyNames.has(name))
        .sort(),
      [...decoyNames].sort(),
      `${view}: and each decoy once`,
    );
    for (const decoy of Object.values(DECOYS))
      t.notMatch(listed.find((tool) => tool.name === decoy)!.description, /deprecated|hint/i, `${view}: ${decoy} looks like a tool`);
  }
  const combined = (await server.request('GET', `/s/${session}/tools?format=openai`)).body as { function: { name: string } }[];
  const canonicalCombined = (await off.request('GET', '/tools?format=openai')).body as { function: { name: string } }[];
  t.same(
    combined.map((e) => e.function.name).filter((name) => !ALL_DECOYS.has(name)),
    canonicalCombined.map((e) => e.function.name),
    'the combined view lists the decoys too (test/server/combined-decoys.test.ts), and nothing else new',
  );
  t.equal((await server.request('POST', '/s/twins-combined/tools/get_order_info', { order_id: order.order_id })).status, 200, 'and calls them');
  const document = (await server.request('GET', `/s/${session}/retail/openapi.json`)).body;
  const validation = await new Validator().validate(document);
  t.ok(validation.valid, 'the session document is valid OpenAPI', { errors: validation.errors });
  t.match(
    document.paths['/retail/tools/get_order_info'].post,
    {
      operationId: 'get_order_info',
      requestBody: { content: { 'application/json': { schema: { properties: { order_id: Object }, required: ['order_id'] } } } },
      responses: { 200: { content: { 'application/json': { schema: { type: 'object' } } } } },
    },
    'the decoy has an operation of its own',
  );
  const ids = Object.values(document.paths as Record<string, { post?: { operationId: string } }>).flatMap((item) => (item.post ? [item.post.operationId] : []));
  t.equal(new Set(ids).size, ids.length, 'operationIds stay unique');
  for (const path of Object.keys(canonicalDocument.paths)) t.same(document.paths[path], canonicalDocument.paths[path], `${path}: as in the canonical document`);

  // The decoy: partial data, a deprecation notice, journaled under its own name.
  const info = await server.call('retail', 'get_order_info', { order_id: order.order_id }, session);
  t.equal(info.status, 200);
  t.match(
    info.body,
    { order_id: order.order_id, status: order.status, deprecated: true, deprecation: /deprecated.*get_order_details/ },
    'a deprecated answer pointing to the canonical tool',
  );
  for (const field of ['address', 'fulfillments', 'payment_history']) t.notOk(field in info.body, `partial: no ${field}`);
  t.notOk('last_synced_at' in info.body, 'no sync date: it serves the live order, partially');
  t.notOk('_hint' in info.body, 'no hint without hints mode');
  t.match(await lastEntry(server, session), {
    tool: 'get_order_info',
    call: 1,
    status: 200,
    hazards: [
      {
        kind: 'lookalike',
        family: 'specification',
        tool: 'get_order_info',
        call: 1,
        decoy: 'get_order_info',
        canonical: 'get_order_details',
        recovery: /call get_order_details/,
        hint: /deprecated/,
        retryable: false,
      },
    ],
  });
  const legacy = await server.call('retail', 'search_products_legacy', { keyword: 'lamp' }, session);
  t.match(legacy.body, { deprecated: true, deprecation: /search_product/, products: Array }, 'the search decoy is deprecated too');
  t.match((await lastEntry(server, session)).hazards, [{ kind: 'lookalike', tool: 'search_products_legacy', canonical: 'search_product' }]);

  // The canonical tools answer in full, exactly as without the hazard, and are not journaled as hazards.
  const details = await server.call('retail', 'get_order_details', { order_id: order.order_id }, session);
  t.same(
    [details.status, details.body],
    [200, (await off.call('retail', 'get_order_details', { order_id: order.order_id })).body],
    'get_order_details: the whole order',
  );
  t.same((await lastEntry(server, session)).hazards, [], 'not a hazard');
  const search = await server.call('retail', 'search_product', { query: 'lamp' }, session);
  t.same(search.body, (await off.call('retail', 'search_product', { query: 'lamp' })).body, 'search_product: the same results');
  t.same((await lastEntry(server, session)).hazards, []);
});

t.test('lookalike: seeded per session, the same across restarts, independent of other sessions', async (t) => {
  await expectSeededSessionDraws(t, {
    ...DRAWS,
    otherSeed: '9',
    eachSession: (t, [listed, answers], session) => t.equal(listed, answers, `${session}: the decoy answers exactly when listed`),
    neighboursFirst: {
      sessions: ['noise-a', 'noise-b', 'noise-c'],
      script: {
        rounds: 1,
        round: () => [
          ['get_order_info', { order_id: order.order_id }],
          ['get_order_details', { order_id: order.order_id }],
        ],
      },
    },
    messages: { split: 'see the decoy and some not', restart: 'a restart with the same seed gives the same sessions the decoy' },
  });
});

t.test('lookalike: hints mode keeps the schedule and only adds hints', async (t) => {
  const { plain, hinted, session } = await expectHintsKeepDraws(t, { ...DRAWS, message: 'the same sessions see the decoy' });

  const hint = 'get_order_info is deprecated; get_order_details is the maintained tool.';
  const [plainViews, hintViews] = [await views(plain, session), await views(hinted, session)];
  for (const view of Object.keys(plainViews)) {
    const expected = plainViews[view]!.map((tool) => (tool.name === 'get_order_details' ? { ...tool, description: `${tool.description} (${hint})` } : tool));
    t.same(hintViews[view], expected, `${view}: the canonical tool names the decoy as deprecated; nothing else changes`);
  }
  t.ok((await new Validator().validate((await hinted.request('GET', `/s/${session}/retail/openapi.json`)).body)).valid, 'the hinted document is valid');
  const [a, b] = [
    await plain.call('retail', 'get_order_info', { order_id: order.order_id }, session),
    await hinted.call('retail', 'get_order_info', { order_id: order.order_id }, session),
  ];
  t.same(b.body, { ...a.body, _hint: hint }, "the decoy's answer only gains the hint");
  t.same((await lastEntry(hinted, session)).hazards, (await lastEntry(plain, session)).hazards, 'the journal is the same');
  const [c, d] = [
    await plain.call('retail', 'get_order_details', { order_id: order.order_id }, session),
    await hinted.call('retail', 'get_order_details', { order_id: order.order_id }, session),
  ];
  t.same(d.body, c.body, 'the canonical tool answers as without hints');
});
