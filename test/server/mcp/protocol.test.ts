import t from 'tap';
import { connectMcp } from '../../helpers/mcp.js';
import { startServer } from '../../helpers/server.js';

// The HTTP side of the MCP endpoint: what a client that gets the protocol wrong receives, and bounds.

const ACCEPT = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const initialize = (id = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

t.test('requests outside a session, or in an unknown one, are refused with JSON-RPC errors', async (t) => {
  const server = await startServer(t);
  const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
  const none = await server.request('POST', '/mcp', list, ACCEPT);
  t.equal(none.status, 400, 'no session id and not initialize: 400');
  t.match(none.body, { jsonrpc: '2.0', error: { code: -32000, message: /must be initialize/ }, id: null });
  const unknown = await server.request('POST', '/mcp', list, { ...ACCEPT, 'mcp-session-id': 'nope' });
  t.equal(unknown.status, 404, 'an unknown MCP session: 404, so the client initializes again');
  const get = await server.request('GET', '/retail/mcp', undefined, { accept: 'text/event-stream' });
  t.equal(get.status, 400, 'a GET stream needs a session');
  const opened = await server.request('POST', '/retail/mcp', initialize(), ACCEPT);
  t.equal(opened.status, 200, 'initialize opens one');
  const id = opened.headers['mcp-session-id'] as string;
  t.match(opened.body, { result: { serverInfo: { name: 'wildtools-retail' } } });
  const elsewhere = await server.request('POST', '/airline/mcp', list, { ...ACCEPT, 'mcp-session-id': id });
  t.equal(elsewhere.status, 404, "a retail MCP session is not airline's");
  const rebound = await server.request('POST', '/s/other/retail/mcp', list, { ...ACCEPT, 'mcp-session-id': id });
  t.equal(rebound.status, 400, 'nor can it move to another session');
  t.match(rebound.body, { error: { message: /bound to session/ } });
  t.equal((await server.request('DELETE', '/retail/mcp', undefined, { 'mcp-session-id': id })).status, 200, 'DELETE closes it');
  t.equal((await server.request('POST', '/retail/mcp', list, { ...ACCEPT, 'mcp-session-id': id })).status, 404, 'and it is gone');
});

t.test('a bad session id named at initialize is a problem, and no MCP session is opened', async (t) => {
  const server = await startServer(t);
  const bad = await server.request('POST', '/mcp', initialize(), { ...ACCEPT, 'x-session-id': 'no spaces allowed' });
  t.equal(bad.status, 400);
  t.match(bad.headers['content-type'], /^application\/problem\+json/);
});

t.test('MCP sessions are bounded by the session cap; closing one makes room', async (t) => {
  const server = await startServer(t, { sessions: { maxSessions: 2 } });
  const first = await connectMcp(t, `${server.origin}/mcp`);
  await connectMcp(t, `${server.origin}/mcp`);
  const third = await server.request('POST', '/mcp', initialize(), { ...ACCEPT, 'x-session-id': 'default' });
  t.equal(third.status, 503, 'a third is refused');
  t.match(third.body, { error: { message: /All 2 MCP sessions are in use/ } });
  await first.close();
  t.equal((await server.request('POST', '/mcp', initialize(), { ...ACCEPT, 'x-session-id': 'default' })).status, 200, 'after a close, one more fits');
});

t.test('malformed JSON-RPC never reaches a 500', async (t) => {
  const server = await startServer(t);
  const opened = await server.request('POST', '/mcp', initialize(), ACCEPT);
  const headers = { ...ACCEPT, 'mcp-session-id': opened.headers['mcp-session-id'] as string, 'mcp-protocol-version': '2025-06-18' };
  for (const body of [
    {},
    [],
    { jsonrpc: '2.0' },
    { jsonrpc: '2.0', id: 3, method: 'tools/call' },
    { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 5 } },
    'text',
  ]) {
    const reply = await server.request('POST', '/mcp', body, headers);
    t.ok(reply.status < 500, `${JSON.stringify(body)}: ${reply.status} ${reply.text.slice(0, 120)}`);
  }
});
