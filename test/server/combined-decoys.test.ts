import t from 'tap';
import { domains } from '../../domains/index.js';
import type { JournalEntry } from '../helpers/hazards.js';
import { connectMcp } from '../helpers/mcp.js';
import { findOrder } from '../helpers/retail.js';
import { startServer, type TestServer } from '../helpers/server.js';

// The combined views (GET /tools, POST /tools/{name}, /mcp) show a session's decoys exactly when and where
// its domain views do (lookalike), and call them the same way.

type Listed = { function: { name: string; description: string } }[];
const names = (listed: Listed) => listed.map((entry) => entry.function.name);
const DECOYS = domains.flatMap((domain) =>
  (domain.hazards ?? []).flatMap((s) => (s.kind === 'lookalike' ? [{ domain: domain.name, name: s.decoy.name }] : [])),
);
const order = findOrder((o) => o.status === 'delivered' && o.fulfillments.length > 0);

/** Every domain's listing, mapped to combined names, with shared tools where the combined view puts them (their first domain). */
async function expectedCombined(server: TestServer, session: string): Promise<{ name: string; description: string }[]> {
  const out: { name: string; description: string }[] = [];
  for (const domain of domains) {
    const listed = (await server.request('GET', `/s/${session}/${domain.name}/tools?format=openai`)).body as Listed;
    for (const { function: f } of listed) {
      const entry = server.app.registry.byDomain.get(domain.name)!.get(f.name);
      if (!entry) out.push({ name: f.name, description: f.description });
      else if (server.app.registry.combined.get(entry.combinedName) === entry) out.push({ name: entry.combinedName, description: f.description });
    }
  }
  return out;
}

t.test('decoys in the combined listing, REST and MCP, as in the domain views', async (t) => {
  t.ok(DECOYS.length >= 4, `decoys declared: ${DECOYS.map((d) => d.name).join(', ')}`);
  const server = await startServer(t, { hazardEnv: { HAZARDS: 'lookalike', HAZARD_SEED: '1' } });
  const session = await server.newSession({ id: 'c' });
  const combined = (await server.request('GET', `/s/${session}/tools?format=openai`)).body as Listed;
  for (const decoy of DECOYS) t.ok(names(combined).includes(decoy.name), `${decoy.domain}/${decoy.name} listed`);
  t.same(
    combined.map(({ function: f }) => ({ name: f.name, description: f.description })),
    await expectedCombined(server, session),
    'each domain’s listing, in its order, under combined names',
  );

  const viaDomain = await server.call('retail', 'get_order_info', { order_id: order.order_id }, session);
  const viaCombined = await server.request('POST', `/s/${session}/tools/get_order_info`, { order_id: order.order_id });
  t.equal(viaCombined.status, 200);
  t.same(viaCombined.body, viaDomain.body, 'the same deprecated answer');
  t.equal(viaCombined.headers['deprecation'], viaDomain.headers['deprecation'], 'and headers');
  t.match((await server.journal<JournalEntry>(session)).at(-1), {
    domain: 'retail',
    tool: 'get_order_info',
    call: 2,
    hazards: [{ kind: 'lookalike', decoy: 'get_order_info' }],
  });

  const mcp = await connectMcp(t, `${server.origin}/s/${session}/mcp`);
  const mcpNames = (await mcp.client.listTools()).tools.map((tool) => tool.name);
  t.same(mcpNames, names(combined), '/mcp lists what GET /tools lists');
  const called = await mcp.call('get_order_info', { order_id: order.order_id });
  t.notOk(called.isError, 'callable over MCP');
  t.match((await server.journal<JournalEntry>(session)).at(-1), { tool: 'get_order_info', call: 3, hazards: [{ kind: 'lookalike' }] });
});

t.test('a session whose decoys are off: none in the combined views, and no such tool', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARDS: 'lookalike', HAZARD_SEED: '1' } });
  const quiet = await server.newSession({ id: 'q', hazards: { kinds: { lookalike: 'off' } } });
  const off = await startServer(t);
  t.same(names((await server.request('GET', `/s/${quiet}/tools?format=openai`)).body), names((await off.request('GET', '/tools?format=openai')).body));
  t.match(await server.request('POST', `/s/${quiet}/tools/get_order_info`, { order_id: order.order_id }), {
    status: 404,
    body: { code: 'unknown_tool', detail: /No tool 'get_order_info' in the combined view/ },
  });
  const mcp = await connectMcp(t, `${server.origin}/s/${quiet}/mcp`);
  t.notOk(
    (await mcp.client.listTools()).tools.some((tool) => DECOYS.some((d) => d.name === tool.name)),
    '/mcp lists no decoy',
  );
  await t.rejects(mcp.call('get_order_info', { order_id: order.order_id }), /No tool 'get_order_info'/);
});
