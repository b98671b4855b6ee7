import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import t, { type Test } from 'tap';
import { HelpDesk, type Ticket } from '../../examples/upstream-mcp/desk.js';
import { buildMcpServer } from '../../examples/upstream-mcp/server.js';
import { mcpHttp } from '../../examples/upstream-mcp/streamable.js';
import { defaultData } from '../../examples/upstream-crm/data.js';
import { connectMcp } from '../helpers/mcp.js';
import { spawnListening } from '../helpers/process.js';

// The example MCP server a proxy will sit in front of, reached as a client would: the SDK's Client over
// Streamable HTTP (its http.ts) and over stdio (its stdio.ts, started as a child process).

const entry = (name: string) => new URL(`../../examples/upstream-mcp/${name}`, import.meta.url).pathname;
/** A child compiled by tsx: its coverage is left out, as for the server's own child processes. */
const childEnv = { ...process.env, _TAPJS_PROCESSINFO_COVERAGE_: '0' } as Record<string, string>;
const contacts = defaultData().contacts;

type Call = (name: string, args: Record<string, unknown>) => Promise<CallToolResult>;
const callOf =
  (client: Client): Call =>
  (name, args) =>
    client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
const textOf = (result: CallToolResult) => (result.content[0]?.type === 'text' ? result.content[0].text : '');

/** Every page of a contact's tickets: their ids, and how many pages. */
async function walkTickets(call: Call, contactId: string): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const result = await call('list_tickets', { contact_id: contactId, ...(cursor === null ? {} : { cursor }) });
    if (result.isError) throw new Error(textOf(result));
    const page = result.structuredContent as { items: Ticket[]; next_cursor: string | null };
    ids.push(...page.items.map((ticket) => ticket.id));
    cursor = page.next_cursor;
    pages += 1;
  } while (cursor !== null && pages < 50);
  return { ids, pages };
}

/** The same checks over any transport: the listing, each tool, its errors, and a write that reads see. */
async function exercise(t: Test, client: Client): Promise<void> {
  const call = callOf(client);
  const { tools } = await client.listTools();
  t.same(tools.map((tool) => tool.name).sort(), ['create_ticket', 'get_ticket', 'list_tickets', 'lookup_contact']);
  const hints = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations?.readOnlyHint]));
  t.same(hints, { lookup_contact: true, create_ticket: false, list_tickets: true, get_ticket: true }, 'reads and the write are told apart');
  t.same(tools.find((tool) => tool.name === 'create_ticket')?.inputSchema.required, ['contact_id', 'subject', 'body']);

  const found = await call('lookup_contact', { email: contacts[2]!.email.toUpperCase() });
  t.notOk(found.isError);
  t.same(found.structuredContent, contacts[2], 'lookup_contact finds the contact, whatever the case of the email');
  t.same(JSON.parse(textOf(found)), contacts[2], 'the text says the same');
  const missing = await call('lookup_contact', { email: 'nobody@nowhere.example' });
  t.equal(missing.isError, true, 'an unknown email is a tool error');
  t.match(textOf(missing), /^No contact has the email 'nobody@nowhere\.example'\./);

  t.same(await walkTickets(call, 'c_001'), { ids: ['t_001', 't_007', 't_013', 't_019'], pages: 2 }, 'two pages: three tickets, then one');
  t.same(await walkTickets(call, 'c_002'), { ids: [], pages: 1 }, 'a contact without tickets');
  const ticket = await call('get_ticket', { id: 't_007' });
  t.match(ticket.structuredContent, { id: 't_007', contact_id: 'c_001', status: 'open', subject: 'Cannot reset my password' });

  const created = await call('create_ticket', { contact_id: 'c_001', subject: 'Refund', body: 'Please refund order 17.' });
  t.same(
    created.structuredContent,
    { id: 't_025', contact_id: 'c_001', subject: 'Refund', body: 'Please refund order 17.', status: 'open' },
    'the write returns the ticket id',
  );
  t.same((await call('get_ticket', { id: 't_025' })).structuredContent, created.structuredContent, 'get_ticket reads it back');
  t.same((await walkTickets(call, 'c_001')).ids, ['t_001', 't_007', 't_013', 't_019', 't_025'], 'list_tickets shows it');

  for (const [name, args, text] of [
    ['create_ticket', { contact_id: 'c_999', subject: 'x', body: 'y' }, /^No contact with id 'c_999'\. Find the id with lookup_contact\./],
    ['list_tickets', { contact_id: 'c_999' }, /^No contact with id 'c_999'/],
    ['list_tickets', { contact_id: 'c_001', cursor: 'bogus!' }, /'bogus!' is not a cursor list_tickets handed out/],
    ['get_ticket', { id: 't_999' }, /^No ticket with id 't_999'\.$/],
    ['create_ticket', { contact_id: 'c_001', subject: 'No body' }, /body/],
  ] as const) {
    const result = await call(name, args);
    t.equal(result.isError, true, `${name} ${JSON.stringify(args)} is a tool error`);
    t.match(textOf(result), text);
  }
  t.equal((await walkTickets(call, 'c_001')).ids.length, 5, 'the refused writes wrote nothing');
}

t.test('over Streamable HTTP (http.ts, started as a child process)', async (t) => {
  const server = await spawnListening(process.execPath, ['--import', 'tsx', entry('http.ts'), '--port', '0'], { env: childEnv });
  t.teardown(() => server.child.kill());
  t.match(server.origin, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  await exercise(t, (await connectMcp(t, server.origin)).client);
});

t.test('over stdio (stdio.ts, started as a child process)', async (t) => {
  const transport = new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', entry('stdio.ts')], env: childEnv, stderr: 'pipe' });
  const client = new Client({ name: 'upstream-test', version: '1.0.0' });
  await client.connect(transport);
  t.teardown(() => client.close());
  await exercise(t, client);
});

t.test('HTTP sessions are stateful, each its own, all on one desk', async (t) => {
  const http = mcpHttp();
  await new Promise<void>((resolve) => http.server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => http.close());
  const url = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}/mcp`;
  const first = await connectMcp(t, url);
  const second = await connectMcp(t, url);
  const [a, b] = [first, second].map((connection) => (connection.client.transport as { sessionId?: string }).sessionId);
  t.ok(a && b && a !== b, 'two sessions, two ids');

  await first.call('create_ticket', { contact_id: 'c_005', subject: 'Seen by all', body: 'One desk.' });
  t.same((await walkTickets(callOf(second.client), 'c_005')).ids, ['t_003', 't_009', 't_015', 't_021', 't_025'], 'a write in one session is read in the other');

  const post = (headers: Record<string, string>, body: unknown, path = '/mcp') =>
    fetch(url.replace('/mcp', path), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });
  const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
  t.equal((await post({ 'mcp-session-id': 'no-such-session' }, list)).status, 404, 'an unknown session');
  t.equal((await post({}, list)).status, 400, 'no session, and not an initialize');
  t.equal((await post({}, list, '/elsewhere')).status, 404, 'MCP is at /mcp only');
  const broken = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
  t.match(await broken.json(), { error: { code: -32700 } }, 'a body that is not JSON');

  await first.close();
  t.equal((await post({ 'mcp-session-id': a! }, list)).status, 404, 'a closed session is gone');
  t.notOk((await second.call('get_ticket', { id: 't_025' })).isError, 'the other session goes on');
});

t.test('two fresh servers answer identically; each has its own desk', async (t) => {
  const script: [string, Record<string, unknown>][] = [
    ['lookup_contact', { email: contacts[10]!.email }],
    ['list_tickets', { contact_id: 'c_003' }],
    ['create_ticket', { contact_id: 'c_003', subject: 'Same', body: 'Twice.' }],
    ['list_tickets', { contact_id: 'c_003', cursor: 'dF8wMTU' }],
    ['get_ticket', { id: 't_404' }],
  ];
  const run = async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await buildMcpServer().connect(serverSide);
    const client = new Client({ name: 'upstream-test', version: '1.0.0' });
    await client.connect(clientSide);
    const results = [];
    for (const [name, args] of script) results.push(await callOf(client)(name, args));
    await client.close();
    return results;
  };
  const first = await run();
  t.same(await run(), first);
  t.match(first[2]?.structuredContent, { id: 't_025' }, 'each server counts from the same data');
  t.same(new HelpDesk().listTickets('c_003'), new HelpDesk().listTickets('c_003'));
});
