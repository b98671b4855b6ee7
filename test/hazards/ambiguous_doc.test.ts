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
import { retailFixture } from '../helpers/retail.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { proseFlaws } from '../helpers/prose.js';
import { domains } from '../../domains/index.js';
import { contractOf } from '../../hazards/contract.js';
import { ambiguousDoc } from '../../hazards/kinds/ambiguous_doc.js';

// ambiguous_doc (specification, session-wide): the tool's listing loses what its quantity means and its
// default; the tool still behaves as documented. Retail: add_to_cart, whose quantity is added to the units
// already in the cart (read as the line's new quantity, it overshoots).

const canonicalDocument = canonicalRetailDocument();
const fixture = retailFixture();

/** A cart line the tests add to: room for five more units. */
const { user_id, item_id } = (() => {
  for (const cart of Object.values(fixture.carts)) {
    const line = cart.items.find((l) => fixture.products[l.product_id]!.variants[l.item_id]!.available && l.quantity <= 5);
    if (line) return { user_id: cart.user_id, item_id: line.item_id };
  }
  throw new Error('no cart line with room');
})();

/** Everything the listing says of add_to_cart, as one text. */
const textOf = (tool: Listed) => [tool.description, ...Object.values(tool.input.properties).map((field) => field.description ?? '')].join('\n');
/** Whether a session's add_to_cart listing is the trimmed one. */
const trimmed = async (server: TestServer, session: string) => {
  const listed = (await server.request('GET', `/s/${session}/retail/tools?format=anthropic`)).body as { name: string; input_schema: Listed['input'] }[];
  return !('default' in listed.find((e) => e.name === 'add_to_cart')!.input_schema.properties['quantity']!);
};
/** Whether a call of add_to_cart is journaled as ambiguous_doc. */
const journaled = async (server: TestServer, session: string) => {
  await server.call('retail', 'add_to_cart', { user_id, item_id }, session);
  return (await lastEntry(server, session)).hazards.some((event) => event.kind === 'ambiguous_doc');
};

const SESSIONS = sessionIds('doc');
const SEEDED = { HAZARD__AMBIGUOUS_DOC__ADD_TO_CART: '0.5', HAZARD_SEED: '5' };

/** A session's [trimmed, journaled]. */
const draw: Probe<[boolean, boolean]> = async (server, session) => [await trimmed(server, session), await journaled(server, session)];

// The calls whose answers must not depend on the hazard: the default quantity left out, and spelled out.
const CALLS = [
  { user_id, item_id },
  { user_id, item_id, quantity: 1 },
  { user_id, item_id, quantity: 2 },
];
const DRAWS: SessionDraws<[boolean, boolean]> = { env: SEEDED, sessions: SESSIONS, probe: draw, isOn: ([on]) => on };

t.test('ambiguous_doc fires only when enabled, and only on add_to_cart', async (t) => {
  const off = await startServer(t);
  const offViews = await toolViews(off, 'plain');
  for (const [view, listed] of Object.entries(offViews)) {
    const tool = toolIn(listed, 'add_to_cart');
    t.match(tool.description, 'adding an item already in the cart raises its quantity', `off, ${view}: the description says a quantity is added`);
    t.equal(tool.input.properties['quantity']!.description, 'Units to add, 1 to 10 (default 1).', `off, ${view}: so does the parameter`);
    t.equal(tool.input.properties['quantity']!.default, 1, `off, ${view}: quantity has its default`);
  }
  t.same((await off.request('GET', '/s/plain/retail/openapi.json')).body, canonicalDocument, 'off: the session document is the canonical one');
  for (const args of CALLS) await off.call('retail', 'add_to_cart', args, 'plain');
  t.ok(
    (await off.journal<JournalEntry>('plain')).every((entry) => entry.hazards.length === 0),
    'off: nothing journaled',
  );

  const on = await startServer(t, { hazardEnv: { HAZARD__AMBIGUOUS_DOC__ADD_TO_CART: 'on', HAZARD_SEED: '1' } });
  const onViews = await toolViews(on, 'on');
  for (const [view, listed] of Object.entries(onViews)) {
    t.not(textOf(toolIn(listed, 'add_to_cart')), textOf(toolIn(offViews[view]!, 'add_to_cart')), `${view}: add_to_cart is trimmed`);
    t.same(
      listed.filter((tool) => tool.name !== 'add_to_cart'),
      offViews[view]!.filter((tool) => tool.name !== 'add_to_cart'),
      `${view}: every other tool is canonical`,
    );
  }
  await on.call('retail', 'view_cart', { user_id }, 'on');
  t.same((await lastEntry(on, 'on')).hazards, [], 'other tools: nothing journaled');

  const quiet = await on.newSession({ id: 'quiet', hazards: { kinds: { ambiguous_doc: 'off' } } });
  t.same(await toolViews(on, quiet), offViews, 'a session with ambiguous_doc off keeps the canonical listings');
  await on.call('retail', 'add_to_cart', { user_id, item_id }, quiet);
  t.same((await lastEntry(on, quiet)).hazards, [], 'and its calls are not journaled');
});

t.test('ambiguous_doc: the listing loses what the quantity means, the call is journaled, the tool still adds', async (t) => {
  const off = await startServer(t);
  const server = await startServer(t, { hazardEnv: { HAZARDS: 'ambiguous_doc', HAZARD_SEED: '1' } });
  const session = await server.newSession({ id: 'vague' });
  const offViews = await toolViews(off, 'plain');

  for (const [view, listed] of Object.entries(await toolViews(server, session))) {
    const tool = toolIn(listed, 'add_to_cart');
    const canonical = toolIn(offViews[view]!, 'add_to_cart');
    const text = textOf(tool);
    t.notMatch(text, /already in the cart|to add|raises/i, `${view}: nothing says the quantity is added to the cart's`);
    t.notMatch(text, /default/i, `${view}: no default is stated`);
    t.notOk(
      Object.values(tool.input.properties).some((field) => 'default' in field),
      `${view}: no default in the schema`,
    );
    t.equal(tool.input.properties['quantity']!.description, '1 to 10.', `${view}: quantity keeps its bounds only`);
    t.match(tool.description, 'The item must be available. Nothing is ordered', `${view}: the rest of the description reads on`);
    t.same(Object.keys(tool.input.properties), Object.keys(canonical.input.properties), `${view}: the same parameters`);
    t.same(tool.input.required, canonical.input.required, `${view}: the same required ones`);
    t.equal(tool.input.properties['quantity']!.maximum, 10, `${view}: the schema still bounds quantity`);
  }

  // The tool answers as without the hazard: each call adds its units to the line, the default one included.
  const before = ((await off.call('retail', 'view_cart', { user_id }, 'plain')).body.items as { item_id: string; quantity: number }[]).find(
    (l) => l.item_id === item_id,
  )!.quantity;
  for (const [i, args] of CALLS.entries()) {
    const [a, b] = [await off.call('retail', 'add_to_cart', args, 'plain'), await server.call('retail', 'add_to_cart', args, session)];
    t.same([b.status, b.body], [a.status, a.body], `call ${JSON.stringify(args)}: the same answer`);
    t.match(
      await lastEntry(server, session),
      {
        tool: 'add_to_cart',
        call: i + 1,
        status: 200,
        hazards: [
          {
            kind: 'ambiguous_doc',
            family: 'specification',
            tool: 'add_to_cart',
            call: i + 1,
            removed: Array,
            recovery: /check the cart/,
            hint: /default/,
            retryable: false,
          },
        ],
      },
      'journaled',
    );
  }
  const line = ((await server.call('retail', 'view_cart', { user_id }, session)).body.items as { item_id: string; quantity: number }[]).find(
    (l) => l.item_id === item_id,
  )!;
  t.equal(line.quantity, before + 4, 'the quantities were added: 1 (the default), 1 and 2');
  t.same((await server.state(session))['retail'].carts[user_id], (await off.state('plain'))['retail'].carts[user_id], 'the same cart as without the hazard');
});

t.test('ambiguous_doc: seeded per session, the same across restarts, independent of other sessions', async (t) => {
  await expectSeededSessionDraws(t, {
    ...DRAWS,
    otherSeed: '6',
    eachSession: (t, [listed, recorded], session) => t.equal(listed, recorded, `${session}: trimmed exactly when journaled`),
    neighboursFirst: { sessions: ['noise-a', 'noise-b'], script: { rounds: 3, round: () => [['add_to_cart', { user_id, item_id }]] } },
    messages: { split: 'are hit and some not', restart: 'a restart with the same seed hits the same sessions' },
  });
});

t.test('ambiguous_doc: hints mode keeps the schedule and only adds hints', async (t) => {
  const { plain, hinted, session } = await expectHintsKeepDraws(t, { ...DRAWS, message: 'the same sessions are hit' });

  const hint = 'The documentation is incomplete here; the usual units and defaults apply.';
  expectOnlyDescriptionHint(t, await toolViews(plain, session), await toolViews(hinted, session), 'add_to_cart', hint);
  const [a, b] = [
    await plain.call('retail', 'add_to_cart', { user_id, item_id }, session),
    await hinted.call('retail', 'add_to_cart', { user_id, item_id }, session),
  ];
  t.same(b.body, a.body, 'the answer is the same');
  t.same((await lastEntry(hinted, session)).hazards, (await lastEntry(plain, session)).hazards, 'the journal is the same');
});

t.test("every domain's removal leaves grammatical prose, and unrelated parameters untouched", async (t) => {
  t.same(proseFlaws('New total of checked bags. Returns it.', 'The new total of checked bags. Returns it.'), [], 'a sound text has no flaw');
  t.same(proseFlaws('next_page_token of the previous page, e.g. the last one.'), [], 'an identifier may start a sentence; e.g. ends none');
  t.equal(proseFlaws('checked bags.', 'New total of checked bags.').length, 2, '"checked bags.": lower case, and only a noun');
  t.equal(proseFlaws('Bags.', 'New number of those bags.').length, 1, '"Bags.": only a noun');
  t.equal(proseFlaws('Units  to add , 1 to 10 ().').length, 3, 'doubled space, space before a comma, empty parentheses');

  let checked = 0;
  for (const domain of domains)
    for (const scenario of domain.hazards ?? []) {
      if (scenario.kind !== 'ambiguous_doc') continue;
      const canonical = contractOf(domain.tools.find((tool) => tool.name === scenario.tool)!);
      const trimmed = ambiguousDoc.contract!(canonical, { scenario, onset: 1, calls: 0, hints: false, hint: '' });
      const properties = (contract: typeof canonical) =>
        (contract.input as { properties: Record<string, { description?: string; default?: unknown }> }).properties;
      const texts: [string, string | undefined, string | undefined][] = [
        ['description', canonical.description, trimmed.description],
        ...Object.keys(properties(canonical)).map((name): [string, string | undefined, string | undefined] => [
          name,
          properties(canonical)[name]!.description,
          properties(trimmed)[name]!.description,
        ]),
      ];
      let changed = 0;
      for (const [name, before, after] of texts) {
        if (before === after) continue;
        changed++;
        if (after !== undefined) t.same(proseFlaws(after, before), [], `${domain.name}/${scenario.tool} ${name}: "${after}"`);
      }
      t.ok(changed > 0, `${domain.name}/${scenario.tool}: the removal changes the documentation`);
      for (const [name, field] of Object.entries(properties(canonical)))
        if (field.description === properties(trimmed)[name]!.description)
          t.same(properties(trimmed)[name], field, `${domain.name}/${scenario.tool} ${name}: untouched by the removal, default included`);
      checked++;
    }
  t.ok(checked >= 4, `every domain's ambiguous_doc (${checked})`);
});
