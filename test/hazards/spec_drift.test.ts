import t from 'tap';
import {
  canonicalRetailDocument,
  expectHintsKeepDraws,
  expectOnlyDescriptionHint,
  expectSeededSessionDraws,
  lastEntry,
  sessionIds,
  toolIn,
  toolViews,
  type JournalEntry,
  type Listed,
  type Probe,
  type SessionDraws,
} from '../helpers/hazards.js';
import { findOrder, findUser } from '../helpers/retail.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { driftNote } from '../../hazards/versions.js';
import { domains } from '../../domains/index.js';
import { contractOf } from '../../hazards/contract.js';
import { renameIdentifier } from '../../hazards/identifiers.js';
import { specDrift } from '../../hazards/kinds/spec_drift.js';

// spec_drift (specification, session-wide, onset 2): the first call of the tool works; from the
// second, the old parameter name gets a 400 naming it as unknown; the session's listings and
// OpenAPI show the new name from the moment the next call is the drifted one. Retail:
// get_order_details (order_id → order_ref), list_user_orders (user_id → customer_id).

const order = findOrder((o) => o.status === 'delivered');
const customer = findUser((u) => u.orders.length >= 4);
const canonicalDocument = canonicalRetailDocument();

const parametersOf = async (server: TestServer, session: string, tool: string) => {
  const listed = (await server.request('GET', `/s/${session}/retail/tools?format=openai`)).body as {
    function: { name: string; parameters: Listed['input'] };
  }[];
  return Object.keys(listed.find((e) => e.function.name === tool)!.function.parameters.properties);
};

const SESSIONS = sessionIds('drift');
const SEEDED = { HAZARD__SPEC_DRIFT__GET_ORDER_DETAILS: '0.5', HAZARD_SEED: '3' };

/** A session's [first call works, listing shows order_ref after it, second call with order_id refused]. */
const draw: Probe<[boolean, boolean, boolean]> = async (server, session, between) => {
  const first = (await server.call('retail', 'get_order_details', { order_id: order.order_id }, session)).status === 200;
  await between();
  const listed = (await parametersOf(server, session, 'get_order_details')).includes('order_ref');
  await between();
  const refused = (await server.call('retail', 'get_order_details', { order_id: order.order_id }, session)).status === 400;
  return [first, listed, refused];
};
const DRAWS: SessionDraws<[boolean, boolean, boolean]> = { env: SEEDED, sessions: SESSIONS, probe: draw, isOn: ([, listed]) => listed };

t.test('spec_drift fires only when enabled, and only on the tool it is enabled for', async (t) => {
  const off = await startServer(t);
  for (let i = 1; i <= 3; i++)
    t.equal((await off.call('retail', 'get_order_details', { order_id: order.order_id }, 'plain')).status, 200, `off: call ${i} with order_id works`);
  const offViews = await toolViews(off, 'plain');
  for (const [view, listed] of Object.entries(offViews))
    t.same(Object.keys(toolIn(listed, 'get_order_details').input.properties), ['order_id'], `off, ${view}: order_id`);
  t.same((await off.request('GET', '/s/plain/retail/openapi.json')).body, canonicalDocument, 'off: the session OpenAPI is the canonical document');
  t.ok(
    (await off.journal<JournalEntry>('plain')).every((entry) => entry.hazards.length === 0),
    'off: nothing journaled',
  );

  const one = await startServer(t, { hazardEnv: { HAZARD__SPEC_DRIFT__GET_ORDER_DETAILS: 'on', HAZARD_SEED: '1' } });
  for (let i = 1; i <= 3; i++) {
    const page = await one.call('retail', 'list_user_orders', { user_id: customer.user_id, page_size: 2 }, 'one');
    t.same([page.status, page.body.orders.length], [200, 2], `list_user_orders call ${i} with user_id works (not enabled)`);
    t.equal((await one.call('retail', 'track_order', { order_id: order.order_id }, 'one')).status, 200, `track_order call ${i} untouched`);
  }
  await one.call('retail', 'get_order_details', { order_id: order.order_id }, 'one');
  const oneViews = await toolViews(one, 'one');
  for (const [view, listed] of Object.entries(oneViews)) {
    t.same(Object.keys(toolIn(listed, 'get_order_details').input.properties), ['order_ref'], `${view}: get_order_details drifted`);
    t.same(
      listed.filter((tool) => tool.name !== 'get_order_details'),
      offViews[view]!.filter((tool) => tool.name !== 'get_order_details'),
      `${view}: every other tool is canonical`,
    );
  }

  const quiet = await one.newSession({ id: 'quiet', hazards: { kinds: { spec_drift: 'off' } } });
  for (let i = 1; i <= 3; i++)
    t.equal((await one.call('retail', 'get_order_details', { order_id: order.order_id }, quiet)).status, 200, `spec_drift off in the session: call ${i} works`);
  t.same(await toolViews(one, quiet), offViews, 'and its listings and document stay canonical');
});

t.test('spec_drift: call 1 works, call 2 names the unknown field, the listing shows the new name, the new name works', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARDS: 'spec_drift', HAZARD_SEED: '1' } });
  const canonical = await toolViews(await startServer(t), 'plain');
  const session = await server.newSession({ id: 'drift' });

  t.same(await toolViews(server, session), canonical, 'before the first call: the canonical contract');
  const first = await server.call('retail', 'get_order_details', { order_id: order.order_id }, session);
  t.same([first.status, first.body.order_id], [200, order.order_id], 'call 1 with order_id works');
  t.same((await lastEntry(server, session)).hazards, [], 'call 1 carries no hazard');

  // The next call is the drifted one: every view of the session shows order_ref, not order_id.
  for (const [view, listed] of Object.entries(await toolViews(server, session))) {
    const tool = toolIn(listed, 'get_order_details');
    t.same(Object.keys(tool.input.properties), ['order_ref'], `${view}: order_ref, and no order_id`);
    t.same(tool.input.required, ['order_ref'], `${view}: order_ref is required`);
    t.equal(
      tool.input.properties['order_ref']!.description,
      toolIn(canonical[view]!, 'get_order_details').input.properties['order_id']!.description,
      `${view}: same meaning`,
    );
    t.equal(
      tool.description,
      `${toolIn(canonical[view]!, 'get_order_details').description} ${driftNote('order_id is renamed order_ref')}`,
      `${view}: the changelog line, and no hint without hints mode`,
    );
  }
  const combined = (await server.request('GET', `/s/${session}/tools?format=openai`)).body as { function: { name: string; parameters: Listed['input'] } }[];
  t.same(
    Object.keys(combined.find((e) => e.function.name === 'get_order_details')!.function.parameters.properties),
    ['order_ref'],
    'the combined listing shows it too',
  );

  const refused = await server.call('retail', 'get_order_details', { order_id: order.order_id }, session);
  t.equal(refused.status, 400, 'call 2 with order_id: 400');
  t.match(refused.headers['content-type'], /application\/problem\+json/);
  t.match(refused.body, { code: 'invalid_input', detail: /order_id: unknown field 'order_id'/ }, 'the detail names order_id as unknown');
  t.match(
    refused.body.errors,
    [
      { field: 'order_id', message: "unknown field 'order_id'" },
      { field: 'order_ref', message: /required/ },
    ],
    'as a validation error would',
  );
  t.notOk('hint' in refused.body, 'no hint without hints mode');
  t.match(await lastEntry(server, session), {
    tool: 'get_order_details',
    call: 2,
    status: 400,
    changes: [],
    hazards: [
      {
        kind: 'spec_drift',
        family: 'specification',
        tool: 'get_order_details',
        call: 2,
        renamed: { from: 'order_id', to: 'order_ref' },
        sent: 'old',
        recovery: /re-read/,
        hint: /order_id/,
        retryable: false,
      },
    ],
  });

  const recovered = await server.call('retail', 'get_order_details', { order_ref: order.order_id }, session);
  t.same([recovered.status, recovered.body], [200, first.body], 'call 3 with order_ref: the same order');
  t.same((await lastEntry(server, session)).hazards, [], 'the recovered call carries no hazard');
  const viaCombined = await server.request('POST', `/s/${session}/tools/get_order_details`, { order_ref: order.order_id });
  t.same([viaCombined.status, viaCombined.body], [200, first.body], 'the combined route takes order_ref as well');
  const again = await server.call('retail', 'get_order_details', { order_id: order.order_id }, session);
  t.same([again.status, again.body], [400, refused.body], 'the old name stays refused, in the same words');
  const twoMistakes = await server.call('retail', 'get_order_details', { order_id: order.order_id, colour: 'red' }, session);
  t.same(
    twoMistakes.body.errors,
    [
      { field: 'order_id', message: "unknown field 'order_id'" },
      { field: 'order_ref', message: refused.body.errors[1].message },
      { field: 'colour', message: "unknown field 'colour'" },
    ],
    'another mistake beside the old name is named as well',
  );
  const both = await server.call('retail', 'get_order_details', { order_id: order.order_id, order_ref: 42 }, session);
  t.same(
    both.body.errors,
    [
      { field: 'order_id', message: "unknown field 'order_id'" },
      { field: 'order_ref', message: 'expected string, got number' },
    ],
    'both names sent: the old one is unknown, the new one checked as the tool checks order_id',
  );

  // Other sessions, and the default session (no prefix), which made no call: canonical.
  t.same(await toolViews(server, 'other'), canonical, "another session's listings are unchanged");
  t.equal((await server.call('retail', 'get_order_details', { order_id: order.order_id }, 'other')).status, 200, 'and its first call works with order_id');
  t.same((await server.request('GET', '/retail/openapi.json')).body, canonicalDocument, 'the document without a session is the canonical one');
  t.same(
    (await server.request('GET', '/retail/tools?format=openai')).body,
    (await (await startServer(t)).request('GET', '/retail/tools?format=openai')).body,
    'so is the listing',
  );

  // list_user_orders: user_id → customer_id, which every call carries; its page tokens still hold.
  const pages = 'pages';
  const firstPage = await server.call('retail', 'list_user_orders', { user_id: customer.user_id, page_size: 2 }, pages);
  t.same([firstPage.status, firstPage.body.orders.length, typeof firstPage.body.next_page_token], [200, 2, 'string'], 'call 1 with user_id works');
  for (const [view, listed] of Object.entries(await toolViews(server, pages))) {
    const { description, input } = toolIn(listed, 'list_user_orders');
    t.same(Object.keys(input.properties), ['customer_id', 'status', 'page_size', 'page_token'], `${view}: customer_id in place of user_id`);
    t.match(input.properties['customer_id']!.description, 'User id', `${view}: customer_id keeps its description`);
    t.match(description, 'the same customer_id and status', `${view}: the description names it too`);
  }
  const old = await server.call('retail', 'list_user_orders', { user_id: customer.user_id, page_size: 2 }, pages);
  t.equal(old.status, 400, 'call 2 with user_id: 400');
  t.match(old.body.errors, [{ field: 'user_id', message: "unknown field 'user_id'" }, { field: 'customer_id' }], 'naming it, and customer_id as missing');
  const renamed = await server.call('retail', 'list_user_orders', { customer_id: customer.user_id, page_size: 2 }, pages);
  t.same([renamed.status, renamed.body], [200, firstPage.body], 'customer_id acts as user_id did');
  const next = await server.call(
    'retail',
    'list_user_orders',
    { customer_id: customer.user_id, page_size: 2, page_token: firstPage.body.next_page_token },
    pages,
  );
  t.same([next.status, next.body.orders.map((o: { order_id: string }) => o.order_id)], [200, customer.orders.slice(2, 4)], "the first page's token reads on");
});

t.test('spec_drift: seeded per session, the same across restarts, independent of other sessions', async (t) => {
  await expectSeededSessionDraws(t, {
    ...DRAWS,
    otherSeed: '4',
    eachSession: (t, [works, listed, refused], session) => {
      t.ok(works, `${session}: the first call always works`);
      t.equal(listed, refused, `${session}: the listing shows the new name exactly when the old one is refused`);
    },
    // Another session calls the same tool between every step, old name and new.
    neighboursBetween: (busy) => {
      let n = 0;
      return () => busy.call('retail', 'get_order_details', n++ % 2 ? { order_id: order.order_id } : { order_ref: order.order_id }, `noise-${n % 3}`);
    },
    messages: { split: 'drift and some do not', restart: 'a restart with the same seed drifts the same sessions' },
  });
});

t.test('spec_drift: hints mode keeps the schedule and only adds hints', async (t) => {
  const { plain, hinted, session } = await expectHintsKeepDraws(t, { ...DRAWS, message: 'the same sessions drift' });

  const hint = "The API changed: re-read the tool's schema (a parameter was renamed from order_id).";
  expectOnlyDescriptionHint(t, await toolViews(plain, session), await toolViews(hinted, session), 'get_order_details', hint);
  const a = await plain.call('retail', 'get_order_details', { order_id: order.order_id }, session);
  const b = await hinted.call('retail', 'get_order_details', { order_id: order.order_id }, session);
  t.same([a.status, b.status], [400, 400]);
  t.same(b.body, { ...a.body, hint }, 'the 400 only gains the hint');
  t.same((await lastEntry(hinted, session)).hazards, (await lastEntry(plain, session)).hazards, 'the journal is the same');
  t.equal((await hinted.call('retail', 'get_order_details', { order_ref: order.order_id }, session)).status, 200, 'the recovery is the same');
});

t.test('spec_drift renames the identifier, not the same word in prose', async (t) => {
  t.equal(
    renameIdentifier('Open for booking on a date; `date` is YYYY-MM-DD.', 'date', 'departure_date'),
    'Open for booking on a date; `departure_date` is YYYY-MM-DD.',
  );
  t.equal(
    renameIdentifier("The next 1 to 48 hours (hours=24), the hours parameter, 'hours'.", 'hours', 'horizon_hours'),
    "The next 1 to 48 hours (horizon_hours=24), the horizon_hours parameter, 'horizon_hours'.",
  );
  t.equal(
    renameIdentifier('Call again with the same user_id; user_ids and old_user_id stay.', 'user_id', 'customer_id'),
    'Call again with the same customer_id; user_ids and old_user_id stay.',
  );
  t.equal(
    renameIdentifier('The `location.date` and dated hours.', 'date', 'day'),
    'The `location.date` and dated hours.',
    'another name that contains it, or a word that does, is not it',
  );

  // Every domain's drift: the drifted contract names the parameter anew where its documentation names it as an
  // identifier, and keeps every prose use of the word.
  for (const domain of domains)
    for (const scenario of domain.hazards ?? []) {
      if (scenario.kind !== 'spec_drift') continue;
      const { from, to } = scenario.rename;
      const canonical = contractOf(domain.tools.find((tool) => tool.name === scenario.tool)!);
      const drifted = specDrift.contract!(canonical, { scenario, onset: 2, calls: 1, hints: false, hint: '' });
      const note = ` ${driftNote(`${from} is renamed ${to}`)}`;
      t.ok(drifted.description.endsWith(note), `${scenario.tool}: the changelog line`);
      const description = drifted.description.slice(0, -note.length);
      t.equal(description, renameIdentifier(canonical.description, from, to), `${scenario.tool}: the description, identifiers renamed`);
      const words = (text: string) => text.match(new RegExp(`(?<![\\w\`'"])${from}(?![\\w\`'"=])`, 'g'))?.length ?? 0;
      if (!/_/.test(from)) t.equal(words(description), words(canonical.description), `${scenario.tool}: '${from}' as a word of the prose stays`);
      const properties = (contract: typeof canonical) => (contract.input as { properties: Record<string, { description?: string }> }).properties;
      t.same(properties(drifted)[to], properties(canonical)[from], `${scenario.tool}: ${to} keeps the documentation of ${from}`);
      for (const [name, property] of Object.entries(properties(drifted)))
        t.notMatch(property.description ?? '', new RegExp(`[\`'"]${from}[\`'"]`), `${scenario.tool}.${name}: names no ${from} in code`);
    }
  const smart = domains.find((domain) => domain.hazards?.some((s) => s.kind === 'spec_drift' && s.rename.from === 'temperature'));
  if (smart) {
    const scenario = smart.hazards!.find((s) => s.kind === 'spec_drift' && s.rename.from === 'temperature')!;
    const drifted = specDrift.contract!(contractOf(smart.tools.find((tool) => tool.name === scenario.tool)!), {
      scenario: scenario as never,
      onset: 2,
      calls: 1,
      hints: false,
      hint: '',
    });
    t.match(drifted.description, 'The temperature is in', 'the prose keeps its temperature');
    t.match(
      (drifted.input as { properties: Record<string, { description: string }> }).properties['unit']!.description,
      '`setpoint`',
      "another parameter's description names the new name",
    );
  }
});
