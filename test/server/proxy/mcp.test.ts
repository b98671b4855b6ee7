import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import t, { type Test } from 'tap';
import { z } from 'zod';
import { domains } from '../../../domains/index.js';
import { mcpHttp } from '../../../examples/upstream-mcp/streamable.js';
import { HazardEngine } from '../../../hazards/engine.js';
import { buildApp } from '../../../server/app.js';
import { type McpUpstream, ProxyConfigError, parseUpstream } from '../../../server/proxy/config.js';
import { connectMcp } from '../../../server/proxy/mcp/connect.js';
import type { McpProxy } from '../../../server/proxy/mcp/upstream.js';
import type { JournalEntry } from '../../helpers/hazards.js';
import { connectMcp as connectClient, type McpConnection } from '../../helpers/mcp.js';
import { fixtureBases } from '../../helpers/server.js';

// An MCP upstream (examples/upstream-mcp) behind /proxy/helpdesk/mcp: an SDK client talks to wildtools as it
// would to the upstream, and the hazards happen on the way.

const entry = (name: string) => new URL(`../../../examples/upstream-mcp/${name}`, import.meta.url).pathname;
const textOf = (result: CallToolResult) => (result.content[0]?.type === 'text' ? result.content[0].text : '');
const mcpConfig = (mcp: McpUpstream['mcp'], more: Record<string, unknown> = {}) => parseUpstream({ mcp, ...more }, 'test') as McpUpstream;

/** The help desk over Streamable HTTP, in this process, on a free port. */
async function helpdesk(t: Test): Promise<string> {
  const http = mcpHttp();
  await new Promise<void>((resolve) => http.server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => http.close());
  return `http://127.0.0.1:${(http.server.address() as AddressInfo).port}/mcp`;
}

interface Proxied {
  app: FastifyInstance;
  origin: string;
  proxy: McpProxy;
  hazards: HazardEngine;
  /** An SDK client of /s/{session}/proxy/helpdesk/mcp. */
  client(session: string): Promise<McpConnection>;
  journal(session: string): Promise<JournalEntry[]>;
  post(path: string, body: unknown): Promise<Response>;
}

/** wildtools, listening, with the upstream declared as `helpdesk`. */
async function proxied(t: Test, config: McpUpstream): Promise<Proxied> {
  const proxy = (await connectMcp('helpdesk', config)) as McpProxy;
  const hazards = new HazardEngine({ domains, sleep: async () => {} });
  const app = await buildApp({
    domains,
    bases: await fixtureBases(),
    sessions: { ttlMs: 3_600_000, maxSessions: 100, defaultSeed: '0' },
    hazards,
    proxies: [proxy],
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    app,
    origin,
    proxy,
    hazards,
    client: (session) => connectClient(t, `${origin}/s/${session}/proxy/helpdesk/mcp`),
    journal: async (session) => (await (await fetch(`${origin}/sessions/${session}/journal`)).json()) as JournalEntry[],
    post: (path, body) => fetch(origin + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  };
}

/** A session with its own hazard settings. */
async function session(server: Proxied, id: string, hazards: Record<string, unknown>, seed = '7'): Promise<string> {
  const reply = await server.post('/sessions', { id, seed, hazards });
  if (reply.status !== 201) throw new Error(`POST /sessions: ${reply.status} ${await reply.text()}`);
  return id;
}

/** A client of the upstream itself, to see what it really holds. */
async function direct(t: Test, url: string): Promise<McpConnection> {
  return connectClient(t, url);
}

const until = async (done: () => boolean, what: string) => {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!done()) throw new Error(`timed out waiting: ${what}`);
};

const SCRIPT: [string, Record<string, unknown>][] = [
  ['lookup_contact', { email: 'NOBODY@nowhere.example' }],
  ['list_tickets', { contact_id: 'c_001' }],
  ['list_tickets', { contact_id: 'c_001', cursor: 'bogus!' }],
  ['get_ticket', { id: 't_007' }],
  ['create_ticket', { contact_id: 'c_001', subject: 'Refund', body: 'Please refund order 17.' }],
  ['create_ticket', { contact_id: 'c_999', subject: 'x', body: 'y' }],
  ['create_ticket', { contact_id: 'c_001', subject: 'No body' }],
  ['get_ticket', { id: 't_025' }],
];

t.test('hazards off: the listing and every answer are the upstream’s', async (t) => {
  const server = await proxied(t, mcpConfig(await helpdesk(t)));
  const reference = await direct(t, await helpdesk(t));
  const client = await server.client('plain');

  const upstream = (await reference.client.listTools()).tools;
  t.equal(JSON.stringify((await client.client.listTools()).tools), JSON.stringify(upstream), 'names, descriptions, schemas and annotations');
  t.same(client.client.getServerVersion(), { name: 'helpdesk', version: '1.0.0' }, 'the proxy introduces itself as the upstream');

  const contact = ((await reference.call('list_tickets', { contact_id: 'c_003' })).structuredContent as { items: { contact_id: string }[] }).items[0];
  t.ok(contact);
  for (const [name, args] of SCRIPT) {
    const [mine, theirs] = [await client.call(name, args), await reference.call(name, args)];
    t.equal(JSON.stringify(mine), JSON.stringify(theirs), `${name} ${JSON.stringify(args)}: the same bytes`);
  }

  const journal = await server.journal('plain');
  t.same(
    journal.map((e) => [e.domain, e.tool, e.status, e.hazards.length]),
    SCRIPT.map(([name], i) => ['helpdesk', name, [0, 2, 5, 6].includes(i) ? 422 : 200, 0]),
    'each call journaled under the proxy, a tool error as 422',
  );
  t.match(journal[4], { args: { contact_id: 'c_001' }, result: { id: 't_025' }, proxy: { method: 'tools/call', path: '/tools/create_ticket' } });
  t.match(journal[0]?.problem, { status: 422, detail: /No contact has the email/ });

  await t.rejects(client.call('no_such_tool', {}), new McpError(ErrorCode.InvalidParams, 'Tool no_such_tool not found'), 'an unknown tool: the SDK’s error');
  const wrong = await fetch(`${server.origin}/proxy/helpdesk/elsewhere`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
  t.equal(wrong.status, 404, 'MCP is served at /proxy/helpdesk/mcp only');
  const proxies = (await (await fetch(`${server.origin}/proxies`)).json()) as { name: string; kind: string; operations: { name: string; writes: boolean }[] }[];
  t.same(
    proxies.map((p) => [p.name, p.kind, p.operations.map((o) => `${o.name}${o.writes ? ' (writes)' : ''}`)]),
    [['helpdesk', 'mcp', ['lookup_contact', 'create_ticket (writes)', 'list_tickets', 'get_ticket']]],
  );
});

t.test('transient_failure: failures as tool errors, fixed by the seed, and a retry succeeds', async (t) => {
  const server = await proxied(t, mcpConfig(await helpdesk(t)));
  const settings = { tools: { helpdesk__get_ticket: { transient_failure: 0.5 } }, max_consecutive: 3 };
  const schedule = async (id: string, seed = '7') => {
    const client = await server.client(await session(server, id, settings, seed));
    const failed: number[] = [];
    for (let i = 1; i <= 16; i++) {
      const result = await client.call('get_ticket', { id: 't_001' });
      if (result.isError) failed.push(i);
      else t.match(result.structuredContent, { id: 't_001' });
    }
    await client.close();
    return failed;
  };
  const first = await schedule('tf-a');
  t.ok(first.length > 0 && first.length < 16, `some calls fail (${first.join(', ')})`);
  t.equal((await fetch(`${server.origin}/sessions/tf-a`, { method: 'DELETE' })).status, 204);
  t.same(await schedule('tf-a'), first, 'the same seed and session: the same schedule');
  t.same(await schedule('tf-c'), first, 'another session with the same seed: the same schedule');
  t.not(JSON.stringify(await schedule('tf-b', '8')), JSON.stringify(first), 'another seed: its own schedule');

  const journal = await server.journal('tf-b');
  const hit = journal.find((e) => e.hazards.length > 0)!;
  t.match(hit, { domain: 'helpdesk', tool: 'get_ticket', hazards: [{ kind: 'transient_failure' }] });
  t.ok(hit.status === 429 || hit.status >= 500, `journaled with the fault's status (${hit.status})`);

  const client = await server.client(await session(server, 'tf-on', { tools: { helpdesk__get_ticket: { transient_failure: 'on' } }, max_consecutive: 2 }));
  const results = [];
  for (let i = 0; i < 3; i++) results.push(await client.call('get_ticket', { id: 't_002' }));
  t.same(
    results.map((r) => r.isError === true),
    [true, true, false],
    'two failures in a row at most: the retry succeeds',
  );
  t.match(results[0]?._meta, { 'wildtools/status': Number }, 'rendered as wildtools’ own MCP server renders a fault');
  t.ok(textOf(results[0]!).length > 0, 'with the failing server’s text');
});

t.test('a fault of the connection happens to the HTTP exchange; the retry succeeds', async (t) => {
  const server = await proxied(t, mcpConfig(await helpdesk(t)));
  const client = await server.client(await session(server, 'tr', { tools: { helpdesk__get_ticket: { transport_fault: 'on' } }, max_consecutive: 1 }));
  await t.rejects(client.call('get_ticket', { id: 't_003' }), 'the exchange fails');
  t.match((await client.call('get_ticket', { id: 't_003' })).structuredContent, { id: 't_003' }, 'the retry succeeds');
  t.match(await server.journal('tr'), [
    { tool: 'get_ticket', hazards: [{ kind: 'transport_fault' }] },
    { tool: 'get_ticket', status: 200, hazards: [] },
  ]);
});

t.test('unknown_outcome: the ticket is created once per call, the agent sees a failure', async (t) => {
  const url = await helpdesk(t);
  const server = await proxied(t, mcpConfig(url));
  const desk = await direct(t, url);
  const tickets = async () =>
    ((await desk.call('list_tickets', { contact_id: 'c_002' })).structuredContent as { items: { id: string }[] }).items.map((i) => i.id);
  const client = await server.client(await session(server, 'uo', { tools: { helpdesk__create_ticket: { unknown_outcome: 'on' } }, max_consecutive: 2 }));
  t.same(await tickets(), []);
  const seen: string[] = [];
  for (let i = 1; i <= 3; i++) {
    const outcome = await client.call('create_ticket', { contact_id: 'c_002', subject: `Try ${i}`, body: 'Once.' }).then(
      (result) => (result.isError ? `tool error: ${textOf(result).slice(0, 40)}` : 'success'),
      (error: Error) => `failed exchange: ${error.message.slice(0, 40)}`,
    );
    seen.push(outcome);
    t.equal((await tickets()).length, i, `call ${i}: the upstream holds ${i} ticket(s) (${outcome})`);
  }
  t.notMatch(seen[0], /^success/, 'the first call fails for the agent');
  t.notMatch(seen[1], /^success/, 'so does the second');
  t.equal(seen[2], 'success', 'past max_consecutive, the answer arrives');
  const journal = await server.journal('uo');
  t.same(
    journal.map((e) => [e.domain, e.tool, e.hazards.map((h) => h.kind)]),
    [
      ['helpdesk', 'create_ticket', ['unknown_outcome']],
      ['helpdesk', 'create_ticket', ['unknown_outcome']],
      ['helpdesk', 'create_ticket', []],
    ],
  );
  t.match(journal[0]?.hazards[0], { committed: true });
});

t.test('spec_drift: the renamed argument is listed, announced, refused under its old name', async (t) => {
  const url = await helpdesk(t);
  const server = await proxied(t, mcpConfig(url));
  const client = await server.client(await session(server, 'drift', { tools: { helpdesk__create_ticket: { spec_drift: 'on' } } }));
  const schema = async () => (await client.client.listTools()).tools.find((tool) => tool.name === 'create_ticket')!;
  const before = await schema();
  t.same(before.inputSchema.required, ['contact_id', 'subject', 'body'], 'contact_id at first');
  const first = await client.call('create_ticket', { contact_id: 'c_004', subject: 'Before', body: 'The drift.' });
  t.match(first.structuredContent, { id: 't_025' }, 'the first call goes through');
  await until(() => client.listChanges() > 0, 'tools/list_changed');
  t.equal(client.listChanges(), 1, 'tools/list_changed, once');
  const after = await schema();
  t.same(after.inputSchema.required, ['contactId', 'subject', 'body'], 'contactId after');
  t.ok('contactId' in (after.inputSchema.properties ?? {}) && !('contact_id' in (after.inputSchema.properties ?? {})));
  t.match(after.description, /contact_id is renamed contactId/);
  t.same(after.annotations, before.annotations, 'the upstream’s annotations kept');
  t.same(
    (await client.client.listTools()).tools.filter((tool) => tool.name !== 'create_ticket'),
    (await (await direct(t, url)).client.listTools()).tools.filter((tool) => tool.name !== 'create_ticket'),
    'the other tools as the upstream lists them',
  );

  const old = await client.call('create_ticket', { contact_id: 'c_004', subject: 'Old', body: 'Refused.' });
  t.equal(old.isError, true, 'the old name is refused');
  t.match(textOf(old), /unknown field 'contact_id'/);
  const renamed = await client.call('create_ticket', { contactId: 'c_004', subject: 'New', body: 'Accepted.' });
  t.notOk(renamed.isError);
  t.match(renamed.structuredContent, { id: 't_026', contact_id: 'c_004', subject: 'New' }, 'the new name works: the upstream got contact_id');
  const journal = await server.journal('drift');
  t.same(
    journal.map((e) => [e.tool, e.status, e.hazards.map((h) => h.kind)]),
    [
      ['create_ticket', 200, []],
      ['create_ticket', 400, ['spec_drift']],
      ['create_ticket', 200, []],
    ],
  );
});

t.test('upstream timeouts are a tool error naming timeout_ms; upstream tools/list_changed re-attaches', async (t) => {
  const upstream = new McpServer({ name: 'slow', version: '1.0.0' });
  let finished = 0;
  upstream.registerTool('wait', { inputSchema: { ms: z.number() } }, async ({ ms }) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    finished++;
    return { content: [{ type: 'text', text: `waited ${ms}` }] };
  });
  const url = await single(t, upstream);
  const server = await proxied(t, mcpConfig(url, { timeout_ms: 200 }));
  const client = await server.client('slow');
  t.same(
    (await client.client.listTools()).tools.map((tool) => tool.name),
    ['wait'],
  );
  t.equal(textOf(await client.call('wait', { ms: 1 })), 'waited 1');
  const late = await client.call('wait', { ms: 1500 });
  t.equal(finished, 1, 'answered before the upstream finished: no hang');
  t.equal(late.isError, true);
  t.equal(textOf(late), 'The upstream MCP server did not answer within 200 ms (timeout_ms).');
  t.match((await server.journal('slow')).at(-1), { status: 504, problem: { type: /upstream-timeout/ } });

  upstream.registerTool('added', { description: 'A tool that came later.', annotations: { readOnlyHint: true } }, async () => ({
    content: [{ type: 'text', text: 'here' }],
  }));
  await until(() => server.proxy.toolNamed('added') !== undefined, 'the proxy re-lists');
  await until(() => client.listChanges() > 0, 'the proxy’s client told');
  t.ok(
    (await client.client.listTools()).tools.some((tool) => tool.name === 'added'),
    'listed to the proxy’s clients',
  );
  t.equal(textOf(await client.call('added', {})), 'here');
  t.doesNotThrow(() => server.hazards.setRuntime({ tools: { helpdesk__added: { latency: 'on' } } }), 'the hazard engine knows it: re-attached');
  t.equal((await server.post('/sessions', { hazards: { tools: { helpdesk__added: { transient_failure: 'on' } } } })).status, 201);
});

t.test('rules naming unknown tools, and an upstream that is not there, are config errors', async (t) => {
  const url = await helpdesk(t);
  await t.rejects(
    connectMcp('helpdesk', mcpConfig(url, { rules: [{ kind: 'conflict', operation: 'get_ticket', field: 'status', authority: 'get_tickets' }] })),
    new ProxyConfigError("helpdesk.rules.0: unknown operation 'get_tickets' (known: lookup_contact, create_ticket, list_tickets, get_ticket)"),
  );
  const failure = async (config: McpUpstream) =>
    connectMcp('gone', config).then(
      () => undefined,
      (error: unknown) => error,
    );
  const unreachable = await failure(mcpConfig('http://127.0.0.1:9/mcp'));
  t.ok(unreachable instanceof ProxyConfigError, 'nothing listening');
  t.match(unreachable, { message: /^gone: mcp: cannot connect to http:\/\/127\.0\.0\.1:9\/mcp/ });
  const dead = await failure(mcpConfig({ command: process.execPath, args: ['-e', 'console.error("no MCP here"); process.exit(3)'] }));
  t.ok(dead instanceof ProxyConfigError, 'a child that exits');
  t.match(dead, { message: /^gone: mcp: cannot connect to stdio: .*; it said: no MCP here$/ });
});

t.test('a stdio upstream: the child starts, lists, answers, and is gone after close', async (t) => {
  const config = mcpConfig({ command: process.execPath, args: ['--import', 'tsx', entry('stdio.ts')], env: { _TAPJS_PROCESSINFO_COVERAGE_: '0' } });
  const server = await proxied(t, config);
  const pid = (server.proxy.client.transport as StdioClientTransport).pid!;
  t.ok(pid > 0 && alive(pid), 'the child runs');
  const client = await server.client('stdio');
  t.same(
    (await client.client.listTools()).tools.map((tool) => tool.name),
    ['lookup_contact', 'create_ticket', 'list_tickets', 'get_ticket'],
  );
  t.match((await client.call('get_ticket', { id: 't_007' })).structuredContent, { id: 't_007', contact_id: 'c_001' });
  await client.close();
  await server.app.close();
  await until(() => !alive(pid), 'the child exits');
  t.notOk(alive(pid), 'the child is gone');
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** An MCP server with one Streamable HTTP session (the proxy's), for upstreams the test shapes. */
async function single(t: Test, server: McpServer): Promise<string> {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await server.connect(transport);
  const read = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
  };
  const http = createServer((request, response) => {
    void read(request).then((body) => transport.handleRequest(request, response, body));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  t.teardown(async () => {
    await server.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}
