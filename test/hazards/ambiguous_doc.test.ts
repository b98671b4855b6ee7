import t from 'tap';
import { canonicalRetailDocument, expectHintsKeepDraws, expectOnlyDescriptionHint, expectSeededSessionDraws, lastEntry, sessionIds, toolIn, toolViews, type JournalEntry, type Listed, type Probe, type SessionDraws } from '../helpers/hazards.js';
import { startServer, type TestServer } from '../helpers/server.js';

// ambiguous_doc (specification, session-wide): the tool's listing loses its units, bounds and
// defaults; the tool still takes the sensible defaults. Retail: search_product.

const canonicalDocument = canonicalRetailDocument();

/** Everything the listing says of search_product, as one text. */
const textOf = (tool: Listed) => [tool.description, ...Object.values(tool.input.properties).map((field) => field.description ?? '')].join('\n');
/** Whether a session's search_product listing is the trimmed one. */
const trimmed = async (server: TestServer, session: string) => {
  const listed = (await server.request('GET', `/s/${session}/retail/tools?format=anthropic`)).body as { name: string; input_schema: Listed['input'] }[];
  return !('default' in listed.find((e) => e.name === 'search_product')!.input_schema.properties['limit']!);
};
/** Whether a call of search_product is journaled as ambiguous_doc. */
const journaled = async (server: TestServer, session: string) => {
  await server.call('retail', 'search_product', { query: 'lamp' }, session);
  return (await lastEntry(server, session)).hazards.some((event) => event.kind === 'ambiguous_doc');
};

const SESSIONS = sessionIds('doc');
const SEEDED = { HAZARD__AMBIGUOUS_DOC__SEARCH_PRODUCT: '0.5', HAZARD_SEED: '5' };

/** A session's [trimmed, journaled]. */
const draw: Probe<[boolean, boolean]> = async (server, session) => [await trimmed(server, session), await journaled(server, session)];

// The calls whose answers must not depend on the hazard: defaults left out, and spelled out.
const CALLS = [{}, { query: 'lamp' }, { query: 'lamp', limit: 10, offset: 0, available_only: true, sort: 'relevance' }, { category: 'electronics', max_price: 100 }];
const DRAWS: SessionDraws<[boolean, boolean]> = { env: SEEDED, sessions: SESSIONS, probe: draw, isOn: ([on]) => on };

t.test('ambiguous_doc fires only when enabled, and only on search_product', async (t) => {
  const off = await startServer(t);
  const offViews = await toolViews(off, 'plain');
  for (const [view, listed] of Object.entries(offViews)) {
    const tool = toolIn(listed, 'search_product');
    t.match(textOf(tool), /\(default 10\)[\s\S]*1 to 50|1 to 50[\s\S]*\(default 10\)/, `off, ${view}: bounds and defaults are stated`);
    t.match(tool.input.properties['min_price']!.description, 'Only items costing at least this much.', `off, ${view}: min_price is described`);
    t.equal(tool.input.properties['limit']!.default, 10, `off, ${view}: limit has its default`);
  }
  t.same((await off.request('GET', '/s/plain/retail/openapi.json')).body, canonicalDocument, 'off: the session document is the canonical one');
  for (const args of CALLS) await off.call('retail', 'search_product', args, 'plain');
  t.ok((await off.journal<JournalEntry>('plain')).every((entry) => entry.hazards.length === 0), 'off: nothing journaled');

  const on = await startServer(t, { hazardEnv: { HAZARD__AMBIGUOUS_DOC__SEARCH_PRODUCT: 'on', HAZARD_SEED: '1' } });
  const onViews = await toolViews(on, 'on');
  for (const [view, listed] of Object.entries(onViews)) {
    t.not(textOf(toolIn(listed, 'search_product')), textOf(toolIn(offViews[view]!, 'search_product')), `${view}: search_product is trimmed`);
    t.same(listed.filter((tool) => tool.name !== 'search_product'), offViews[view]!.filter((tool) => tool.name !== 'search_product'), `${view}: every other tool is canonical`);
  }
  await on.call('retail', 'get_product_details', { product_id: '0' }, 'on');
  t.same((await lastEntry(on, 'on')).hazards, [], 'other tools: nothing journaled');

  const quiet = await on.newSession({ id: 'quiet', hazards: { kinds: { ambiguous_doc: 'off' } } });
  t.same(await toolViews(on, quiet), offViews, 'a session with ambiguous_doc off keeps the canonical listings');
  await on.call('retail', 'search_product', { query: 'lamp' }, quiet);
  t.same((await lastEntry(on, quiet)).hazards, [], 'and its calls are not journaled');
});

t.test('ambiguous_doc: the listing loses units and defaults, the call is journaled, the defaults still apply', async (t) => {
  const off = await startServer(t);
  const server = await startServer(t, { hazardEnv: { HAZARDS: 'ambiguous_doc', HAZARD_SEED: '1' } });
  const session = await server.newSession({ id: 'vague' });
  const offViews = await toolViews(off, 'plain');

  for (const [view, listed] of Object.entries(await toolViews(server, session))) {
    const tool = toolIn(listed, 'search_product');
    const canonical = toolIn(offViews[view]!, 'search_product');
    const text = textOf(tool);
    t.notMatch(text, /default/i, `${view}: no default is stated`);
    t.notMatch(text, /1 to 50/, `${view}: no bounds in words`);
    t.notMatch(text, /costing/, `${view}: the price filters lose what they measure`);
    t.notOk(Object.values(tool.input.properties).some((field) => 'default' in field), `${view}: no default in the schema`);
    t.notOk(Object.values(tool.input.properties).some((field) => field.description === ''), `${view}: no empty descriptions`);
    t.notOk('description' in tool.input.properties['min_price']! || 'description' in tool.input.properties['max_price']!, `${view}: the price filters say nothing`);
    t.equal(tool.input.properties['limit']!.description, 'Products per page.', `${view}: limit keeps its meaning`);
    t.same(Object.keys(tool.input.properties), Object.keys(canonical.input.properties), `${view}: the same parameters`);
    t.same(tool.input.required, canonical.input.required, `${view}: the same required ones`);
    t.equal(tool.input.properties['limit']!.maximum, 50, `${view}: the schema still bounds limit`);
    t.equal(tool.description, canonical.description, `${view}: no hint without hints mode`);
  }

  // The tool answers as without the hazard: with its defaults, whether left out or spelled out.
  for (const [i, args] of CALLS.entries()) {
    const [a, b] = [await off.call('retail', 'search_product', args, 'plain'), await server.call('retail', 'search_product', args, session)];
    t.same([b.status, b.body], [a.status, a.body], `call ${JSON.stringify(args)}: the same answer`);
    t.match(await lastEntry(server, session), {
      tool: 'search_product',
      call: i + 1,
      status: 200,
      hazards: [{ kind: 'ambiguous_doc', family: 'specification', tool: 'search_product', call: i + 1, removed: Array, recovery: /US dollars/, hint: /default/ , retryable: false}],
    }, 'journaled');
  }
  const page = (await server.call('retail', 'search_product', {}, session)).body;
  t.same([page.limit, page.offset, page.results.length], [10, 0, 10], 'the default page: 10 from 0');
  t.ok(page.results.every((r: { available_items: number }) => r.available_items > 0), 'available_only defaults to true');
});

t.test('ambiguous_doc: seeded per session, the same across restarts, independent of other sessions', async (t) => {
  await expectSeededSessionDraws(t, {
    ...DRAWS,
    otherSeed: '6',
    eachSession: (t, [listed, recorded], session) => t.equal(listed, recorded, `${session}: trimmed exactly when journaled`),
    neighboursFirst: { sessions: ['noise-a', 'noise-b'], script: { rounds: 3, round: () => [['search_product', { query: 'lamp' }]] } },
    messages: { split: 'are hit and some not', restart: 'a restart with the same seed hits the same sessions' },
  });
});

t.test('ambiguous_doc: hints mode keeps the schedule and only adds hints', async (t) => {
  const { plain, hinted, session } = await expectHintsKeepDraws(t, { ...DRAWS, message: 'the same sessions are hit' });

  const hint = 'The documentation is incomplete here; the usual units and defaults apply.';
  expectOnlyDescriptionHint(t, await toolViews(plain, session), await toolViews(hinted, session), 'search_product', hint);
  const [a, b] = [await plain.call('retail', 'search_product', {}, session), await hinted.call('retail', 'search_product', {}, session)];
  t.same(b.body, a.body, 'the answer is the same');
  t.same((await lastEntry(hinted, session)).hazards, (await lastEntry(plain, session)).hazards, 'the journal is the same');
});
