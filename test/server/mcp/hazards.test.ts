import t from 'tap';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { retailFixture } from '../../helpers/retail.js';
import { connectMcp } from '../../helpers/mcp.js';
import { startServer } from '../../helpers/server.js';

// Hazards behave over MCP as over REST: an API-level fault is a tool error with the API's own text, a
// fault of the connection happens to the HTTP exchange carrying the MCP message, and a listing change
// is announced with notifications/tools/list_changed. Every call is journaled in the bound session.

const db = retailFixture();
const order = Object.values(db.orders)[0]!;
const text = (result: CallToolResult) => (result.content as { text: string }[])[0]!.text;

t.test('an MCP session without a named session gets its own, named in X-Session-Id, with its journal', async (t) => {
  const server = await startServer(t);
  const mcp = await connectMcp(t, `${server.origin}/retail/mcp`);
  const session = mcp.session();
  t.match(session, /^[0-9a-f-]{36}$/, 'a session of its own');
  await mcp.call('get_order_details', { order_id: order.order_id });
  const bad = await mcp.call('get_order_details', { order_id: 42 });
  t.equal(bad.isError, true, 'bad arguments: a tool error');
  const problem = (await server.call('retail', 'get_order_details', { order_id: 42 })).body;
  t.equal(text(bad), problem.detail, "with the problem's detail");
  t.match(bad._meta, { 'wildtools/status': 400, 'wildtools/problem': { code: problem.code } }, 'and the problem itself in _meta');
  const journal = await server.journal(session);
  t.same(
    journal.map((entry) => [entry.tool, entry.status]),
    [
      ['get_order_details', 200],
      ['get_order_details', 400],
    ],
    'both calls journaled in that session',
  );
  const other = await connectMcp(t, `${server.origin}/retail/mcp`);
  t.not(other.session(), session, 'another MCP session, another session');
  await t.rejects(mcp.call('no_such_tool', {}), /No tool 'no_such_tool'/, 'an unknown tool is a JSON-RPC error');
});

t.test('/s/{id}/mcp and X-Session-Id bind the MCP session to a named session', async (t) => {
  const server = await startServer(t);
  const byPath = await connectMcp(t, `${server.origin}/s/run-7/mcp`);
  await byPath.call('calculate', { expression: '1 + 1' });
  const byHeader = await connectMcp(t, `${server.origin}/mcp`, { 'x-session-id': 'run-8' });
  await byHeader.call('calculate', { expression: '2 + 2' });
  t.equal((await server.journal('run-7')).length, 1, 'run-7 has its call');
  t.equal((await server.journal('run-8')).length, 1, 'run-8 has its call');
  t.equal(byPath.session(), 'run-7');
});

t.test('a foreign error page is a tool error with its text; the retry succeeds', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARD__TRANSIENT_FAILURE__GET_ORDER_DETAILS: 'on', HAZARD_SEED: '3' } });
  const mcp = await connectMcp(t, `${server.origin}/retail/mcp`);
  const first = await mcp.call('get_order_details', { order_id: order.order_id });
  t.equal(first.isError, true, 'the first call fails');
  const [entry] = await server.journal(mcp.session());
  t.equal(text(first), typeof entry.problem === 'string' ? entry.problem : JSON.stringify(entry.problem ?? entry.result), 'with the text the API sent');
  t.equal(entry.hazards[0].kind, 'transient_failure', 'journaled as the hazard');
  let result = first;
  for (let i = 0; i < 3 && result.isError; i++) result = await mcp.call('get_order_details', { order_id: order.order_id });
  t.notOk(result.isError, 'a retry gets through');
  t.equal(result.structuredContent?.['order_id'], order.order_id, 'with the order');
});

t.test('a fault of the connection happens to the HTTP exchange; the retry succeeds', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARD__TRANSPORT_FAULT__GET_ORDER_DETAILS: 'on', HAZARD_SEED: '5' } });
  const mcp = await connectMcp(t, `${server.origin}/retail/mcp`);
  const failures: string[] = [];
  let result: CallToolResult | undefined;
  for (let i = 0; i < 4 && !result; i++) {
    try {
      result = await mcp.call('get_order_details', { order_id: order.order_id });
    } catch (error) {
      failures.push(String(error));
    }
  }
  const journal = await server.journal(mcp.session());
  const modes = journal.flatMap((entry) => entry.hazards.map((hazard: { mode: string }) => hazard.mode));
  t.ok(failures.length >= 1, `the client's call failed ${failures.length} times (${modes.join(', ')}): ${failures.join(' | ')}`);
  t.equal(failures.length, modes.length, 'once per fault the journal shows');
  t.equal(result?.structuredContent?.['order_id'], order.order_id, 'then the retry answers');
});

t.test('every connection mode lands on the exchange', async (t) => {
  const seen = new Set<string>();
  for (let seed = 1; seen.size < 4 && seed < 40; seed++) {
    const server = await startServer(t, { hazardEnv: { HAZARD__TRANSPORT_FAULT__GET_ORDER_DETAILS: 'on', HAZARD_SEED: String(seed) } });
    const mcp = await connectMcp(t, `${server.origin}/retail/mcp`);
    const error = await mcp.call('get_order_details', { order_id: order.order_id }).then(
      () => undefined,
      (failure: unknown) => String(failure),
    );
    const [entry] = await server.journal(mcp.session());
    const mode = entry.hazards[0]?.mode;
    if (mode === undefined) continue;
    t.ok(error, `${mode}: the client sees a failed exchange (${error})`);
    seen.add(mode);
    await mcp.close();
    await server.app.close();
  }
  t.same([...seen].sort(), ['empty', 'malformed', 'reset', 'truncated'], 'all four modes seen');
});

t.test('a renamed parameter is announced with tools/list_changed, and the new listing shows it', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARD__SPEC_DRIFT__GET_ORDER_DETAILS: 'on' } });
  const mcp = await connectMcp(t, `${server.origin}/retail/mcp`);
  const before = (await mcp.client.listTools()).tools.find((tool) => tool.name === 'get_order_details')!;
  t.ok((before.inputSchema.properties as object)['order_id' as never], 'order_id at first');
  await mcp.call('get_order_details', { order_id: order.order_id });
  for (let i = 0; i < 50 && mcp.listChanges() === 0; i++) await new Promise((resolve) => setImmediate(resolve));
  t.equal(mcp.listChanges(), 1, 'one notification');
  const after = (await mcp.client.listTools()).tools.find((tool) => tool.name === 'get_order_details')!;
  t.ok((after.inputSchema.properties as object)['order_ref' as never], 'order_ref after');
  const old = await mcp.call('get_order_details', { order_id: order.order_id });
  t.equal(old.isError, true, 'the old name is refused');
  const renamed = await mcp.call('get_order_details', { order_ref: order.order_id });
  t.notOk(renamed.isError, 'the new name answers');
});

t.test('a tool whose answers a hazard may reshape lists no output schema in that session, and its drifted answer still arrives', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARD__OUTPUT_DRIFT__GET_ORDER_DETAILS: 'on' } });
  const mcp = await connectMcp(t, `${server.origin}/retail/mcp`);
  const tools = new Map((await mcp.client.listTools()).tools.map((tool) => [tool.name, tool]));
  t.notOk(tools.get('get_order_details')!.outputSchema, 'get_order_details: no output schema it could break');
  t.ok(tools.get('get_user_details')!.outputSchema, 'get_user_details, untouched: its output schema');
  const answers = [];
  for (let i = 0; i < 2; i++) answers.push(await mcp.call('get_order_details', { order_id: order.order_id }));
  t.ok(answers[0]!.structuredContent?.['status'], 'the first answer has status');
  t.ok(answers[1]!.structuredContent?.['state'], 'the drifted one has state, and the client took it');
  const plain = await connectMcp(t, `${server.origin}/airline/mcp`);
  t.ok(
    (await plain.client.listTools()).tools.every((tool) => tool.name !== 'get_order_details'),
    'other domains are untouched',
  );
});
