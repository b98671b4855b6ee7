import { readFileSync } from 'node:fs';
import t from 'tap';
import { startServer, type TestServer } from '../helpers/server.js';

// ambiguous_doc (specification, session-wide): the tool's listing loses its units, bounds and
// defaults; the tool still takes the sensible defaults. Retail: search_product.

const canonicalDocument = JSON.parse(readFileSync(new URL('../../openapi/retail.json', import.meta.url), 'utf8'));

interface Field {
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
}
interface Listed {
  name: string;
  description: string;
  input: { properties: Record<string, Field>; required?: string[] };
}
interface Entry {
  tool: string;
  call: number;
  status: number;
  hazards: { kind: string; family: string; tool: string; call: number; recovery: string; hint: string; [detail: string]: unknown }[];
}

const FORMATS = ['native', 'openai', 'anthropic', 'mcp'] as const;

/** A session's tools as each listing format and its OpenAPI document show them. */
async function views(server: TestServer, session: string): Promise<Record<string, Listed[]>> {
  const out: Record<string, Listed[]> = {};
  for (const format of FORMATS) {
    const body = (await server.request('GET', `/s/${session}/retail/tools?format=${format}`)).body;
    out[format] =
      format === 'openai'
        ? body.map((e: any) => ({ name: e.function.name, description: e.function.description, input: e.function.parameters }))
        : format === 'anthropic'
          ? body.map((e: any) => ({ name: e.name, description: e.description, input: e.input_schema }))
          : format === 'mcp'
            ? body.tools.map((e: any) => ({ name: e.name, description: e.description, input: e.inputSchema }))
            : body.tools.map((e: any) => ({ name: e.name, description: e.description, input: e.input_schema }));
  }
  const document = (await server.request('GET', `/s/${session}/retail/openapi.json`)).body;
  out['openapi'] = Object.entries(document.paths as Record<string, { post?: any }>)
    .filter(([path, item]) => path.startsWith('/retail/tools/') && item.post?.requestBody)
    .map(([path, item]) => ({ name: path.slice('/retail/tools/'.length), description: item.post.description, input: item.post.requestBody.content['application/json'].schema }));
  return out;
}

const toolIn = (listed: Listed[], name: string) => listed.find((tool) => tool.name === name)!;
const last = async (server: TestServer, session: string) => (await server.journal<Entry>(session)).at(-1)!;

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
  return (await last(server, session)).hazards.some((event) => event.kind === 'ambiguous_doc');
};

const SESSIONS = Array.from({ length: 12 }, (_, i) => `doc-${i}`);

async function schedule(server: TestServer, sessions = SESSIONS) {
  const out: [boolean, boolean][] = [];
  for (const session of sessions) out.push([await trimmed(server, session), await journaled(server, session)]);
  return out;
}

// The calls whose answers must not depend on the hazard: defaults left out, and spelled out.
const CALLS = [{}, { query: 'lamp' }, { query: 'lamp', limit: 10, offset: 0, available_only: true, sort: 'relevance' }, { category: 'electronics', max_price: 100 }];

t.test('ambiguous_doc fires only when enabled, and only on search_product', async (t) => {
  const off = await startServer(t);
  const offViews = await views(off, 'plain');
  for (const [view, listed] of Object.entries(offViews)) {
    const tool = toolIn(listed, 'search_product');
    t.match(textOf(tool), /\(default 10\)[\s\S]*1 to 50|1 to 50[\s\S]*\(default 10\)/, `off, ${view}: bounds and defaults are stated`);
    t.match(tool.input.properties['min_price']!.description, 'Only items costing at least this much.', `off, ${view}: min_price is described`);
    t.equal(tool.input.properties['limit']!.default, 10, `off, ${view}: limit has its default`);
  }
  t.same((await off.request('GET', '/s/plain/retail/openapi.json')).body, canonicalDocument, 'off: the session document is the canonical one');
  for (const args of CALLS) await off.call('retail', 'search_product', args, 'plain');
  t.ok((await off.journal<Entry>('plain')).every((entry) => entry.hazards.length === 0), 'off: nothing journaled');

  const on = await startServer(t, { hazardEnv: { HAZARD__AMBIGUOUS_DOC__SEARCH_PRODUCT: 'on', HAZARD_SEED: '1' } });
  const onViews = await views(on, 'on');
  for (const [view, listed] of Object.entries(onViews)) {
    t.not(textOf(toolIn(listed, 'search_product')), textOf(toolIn(offViews[view]!, 'search_product')), `${view}: search_product is trimmed`);
    t.same(listed.filter((tool) => tool.name !== 'search_product'), offViews[view]!.filter((tool) => tool.name !== 'search_product'), `${view}: every other tool is canonical`);
  }
  await on.call('retail', 'get_product_details', { product_id: '0' }, 'on');
  t.same((await last(on, 'on')).hazards, [], 'other tools: nothing journaled');

  const quiet = await on.newSession({ id: 'quiet', hazards: { kinds: { ambiguous_doc: 'off' } } });
  t.same(await views(on, quiet), offViews, 'a session with ambiguous_doc off keeps the canonical listings');
  await on.call('retail', 'search_product', { query: 'lamp' }, quiet);
  t.same((await last(on, quiet)).hazards, [], 'and its calls are not journaled');
});

t.test('ambiguous_doc: the listing loses units and defaults, the call is journaled, the defaults still apply', async (t) => {
  const off = await startServer(t);
  const server = await startServer(t, { hazardEnv: { HAZARDS: 'ambiguous_doc', HAZARD_SEED: '1' } });
  const session = await server.newSession({ id: 'vague' });
  const offViews = await views(off, 'plain');

  for (const [view, listed] of Object.entries(await views(server, session))) {
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
    t.match(await last(server, session), {
      tool: 'search_product',
      call: i + 1,
      status: 200,
      hazards: [{ kind: 'ambiguous_doc', family: 'specification', tool: 'search_product', call: i + 1, removed: Array, recovery: /US dollars/, hint: /default/ }],
    }, 'journaled');
  }
  const page = (await server.call('retail', 'search_product', {}, session)).body;
  t.same([page.limit, page.offset, page.results.length], [10, 0, 10], 'the default page: 10 from 0');
  t.ok(page.results.every((r: { available_items: number }) => r.available_items > 0), 'available_only defaults to true');
});

t.test('ambiguous_doc: seeded per session, the same across restarts, independent of other sessions', async (t) => {
  const env = { HAZARD__AMBIGUOUS_DOC__SEARCH_PRODUCT: '0.5', HAZARD_SEED: '5' };
  const first = await schedule(await startServer(t, { hazardEnv: env }));
  for (const [i, [listed, recorded]] of first.entries()) t.equal(listed, recorded, `${SESSIONS[i]}: trimmed exactly when journaled`);
  const on = first.map(([listed]) => listed);
  t.ok(on.includes(true) && on.includes(false), `p=0.5: some sessions are hit and some not (${on.join(',')})`);
  t.same(await schedule(await startServer(t, { hazardEnv: env })), first, 'a restart with the same seed hits the same sessions');
  t.not(JSON.stringify(await schedule(await startServer(t, { hazardEnv: { ...env, HAZARD_SEED: '6' } }))), JSON.stringify(first), 'another seed, another schedule');

  const busy = await startServer(t, { hazardEnv: env });
  for (const noise of ['noise-a', 'noise-b']) for (let i = 0; i < 3; i++) await busy.call('retail', 'search_product', { query: 'lamp' }, noise);
  t.same(await schedule(busy, [...SESSIONS].reverse()), [...first].reverse(), "other sessions' calls change no session's schedule");
});

t.test('ambiguous_doc: hints mode keeps the schedule and only adds hints', async (t) => {
  const env = { HAZARD__AMBIGUOUS_DOC__SEARCH_PRODUCT: '0.5', HAZARD_SEED: '5' };
  const plain = await startServer(t, { hazardEnv: env });
  const hinted = await startServer(t, { hazardEnv: { ...env, HAZARD_HINTS: '1' } });
  const plainSchedule = await schedule(plain);
  t.same(await schedule(hinted), plainSchedule, 'the same sessions are hit');

  const session = SESSIONS[plainSchedule.findIndex(([on]) => on)]!;
  const hint = 'The documentation is incomplete here; the usual units and defaults apply.';
  const [plainViews, hintViews] = [await views(plain, session), await views(hinted, session)];
  for (const view of Object.keys(plainViews)) {
    for (const tool of plainViews[view]!) {
      const other = toolIn(hintViews[view]!, tool.name);
      if (tool.name === 'search_product') t.same(other, { ...tool, description: `${tool.description} (${hint})` }, `${view}: only the hint is added`);
      else t.same(other, tool, `${view}: ${tool.name} unchanged`);
    }
  }
  const [a, b] = [await plain.call('retail', 'search_product', {}, session), await hinted.call('retail', 'search_product', {}, session)];
  t.same(b.body, a.body, 'the answer is the same');
  t.same((await last(hinted, session)).hazards, (await last(plain, session)).hazards, 'the journal is the same');
});
