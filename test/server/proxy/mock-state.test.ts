import t from 'tap';
import { parseProxyConfig, type ProxyConfig } from '../../../server/proxy/config.js';
import { buildUpstreams } from '../../../server/proxy/proxies.js';
import { startServer, type TestServer } from '../../helpers/server.js';

// A mock's records are session state like a domain's database: shown by /state, /diff and the session page,
// journaled as changes, kept across a restart (DATA_DIR), started afresh by a reset or a new declaration.

const DOCS = 'test/server/proxy/mock-documents';
const DESK = { openapi: `${DOCS}/helpdesk.yaml`, mock: { seed_file: `${DOCS}/seed.yaml` } };
const inSession = (session: string, path: string) => `/s/${session}/proxy${path}`;

type Teardown = { teardown(fn: () => unknown): void };

async function mockServer(t: Teardown, config: Record<string, unknown> = { desk: DESK }, options: Parameters<typeof startServer>[1] = {}): Promise<TestServer> {
  const proxies = await buildUpstreams(parseProxyConfig(config, 'test') as ProxyConfig, 'test');
  return startServer(t, { proxies, ...options });
}

/** Runs a server with DATA_DIR `dir`, lets `work` use it, and stops it gracefully. */
async function withPersistentServer<T>(dir: string, config: Record<string, unknown>, work: (server: TestServer) => Promise<T>): Promise<T> {
  const closers: (() => unknown)[] = [];
  const server = await mockServer({ teardown: (fn) => closers.push(fn) }, config, { persistence: { dir, intervalMs: 3_600_000 } });
  try {
    return await work(server);
  } finally {
    for (const close of closers.reverse()) await close();
  }
}

t.test("the session's state, diff and page show the mock's records; the journal holds each write's changes", async (t) => {
  const server = await mockServer(t);
  const s = await server.newSession({ seed: 'st' });
  const before = await server.state(s);
  t.same(Object.keys(before.desk.tickets), ['t_100', 't_101'], 'state: the seed records, by resource and id');
  t.same(before.desk.tickets.t_101, { ticketId: 't_101', title: 'VPN slow', priority: 'low', status: 'pending' });
  t.ok(before.retail, 'the built-in domains are there too');

  const created = await server.request('POST', inSession(s, '/desk/tickets'), { title: 'Screen flickers', priority: 'normal' });
  const id = created.body.ticketId as string;
  t.equal((await server.request('PATCH', inSession(s, '/desk/tickets/t_101'), { status: 'closed' })).status, 200);
  t.equal((await server.request('DELETE', inSession(s, '/desk/tickets/t_100'))).status, 204);
  t.equal((await server.request('GET', inSession(s, `/desk/tickets/${id}`))).status, 200);

  const after = await server.state(s);
  t.same(Object.keys(after.desk.tickets), ['t_101', id], 'state: the deleted record gone, the created one there');
  t.equal(after.desk.tickets.t_101.status, 'closed');

  const diff = (await server.request('GET', `/sessions/${s}/diff`)).body;
  t.same(
    diff.desk.map((d: { table: string; id: string; op: string; fields?: string[] }) => [d.table, d.id, d.op, d.fields ?? null]),
    [
      ['tickets', id, 'insert', null],
      ['tickets', 't_101', 'update', ['status']],
      ['tickets', 't_100', 'delete', null],
    ],
    'diff: insert, update and delete, in the order they were made',
  );
  t.same(diff.retail, [], 'no built-in domain changed');

  const journal = await server.journal(s);
  t.same(
    journal.map((entry: { tool: string; changes: { table: string; id: string; value: unknown }[] }) => [
      entry.tool,
      entry.changes.map((c) => `${c.table}/${c.id}`),
    ]),
    [
      ['create_ticket', [`tickets/${id}`]],
      ['update_ticket', ['tickets/t_101']],
      ['delete_ticket', ['tickets/t_100']],
      ['get_ticket', []],
    ],
    'each write journals what it changed; a read nothing',
  );
  t.equal(journal[2].changes[0].value, null, 'a delete journals null');

  const summary = (await server.request('GET', `/sessions/${s}`)).body;
  t.same(summary.changed_domains, ['desk'], 'the summary names the mock as changed');

  const page = await server.request('GET', `/sessions/${s}/view`);
  t.equal(page.status, 200);
  t.match(page.text, `data-domain="desk" data-record="tickets/${id}" data-op="insert"`, 'the page lists the created record');
  t.match(page.text, 'data-domain="desk" data-record="tickets/t_100" data-op="delete"', 'and the deleted one');

  await server.request('POST', `/sessions/${s}/reset`);
  t.same(Object.keys((await server.state(s)).desk.tickets), ['t_100', 't_101'], 'a reset starts again from the seed file');
  t.same((await server.request('GET', `/sessions/${s}/diff`)).body.desk, []);
});

t.test('a write whose answer a hazard dropped journals its changes: the diff shows it happened', async (t) => {
  const server = await mockServer(t);
  const s = await server.newSession({ seed: 'lost', hazards: { tools: { desk__update_ticket: { unknown_outcome: 'on' } } } });
  const status = await server.request('PATCH', inSession(s, '/desk/tickets/t_101'), { status: 'closed' }).then(
    (reply) => reply.status,
    () => 0,
  );
  t.not(status, 200, 'the agent did not get the answer (a gateway error, or the connection reset)');
  const entry = (await server.journal(s)).at(-1);
  t.match(entry, { tool: 'update_ticket', hazards: [{ kind: 'unknown_outcome' }], changes: [{ table: 'tickets', id: 't_101' }] });
  t.match((await server.request('GET', `/sessions/${s}/diff`)).body.desk, [{ id: 't_101', op: 'update', fields: ['status'] }]);
});

t.test('generated ids go one past the highest a resource holds, whatever the records were made by', async (t) => {
  const server = await mockServer(t, { library: { openapi: `${DOCS}/library.json` } });
  const s = await server.newSession({ seed: 'ids' });
  const make = async (title: string) =>
    (await server.request('POST', inSession(s, '/library/books'), { title, isbn: '9780441013593' })).body as { id: number; title: string };
  const [one, two] = [await make('Dune'), await make('Emma')];
  t.same([one.id, two.id], [1, 2], 'integer ids count up from the first');
  t.match((await server.request('DELETE', inSession(s, `/library/books/${two.id}`))).status, /^20[04]$/);
  const three = await make('Ulysses');
  t.equal(three.id, 2, 'the highest was deleted: its number is taken again, as a database row id is');
  t.not(JSON.stringify({ ...three, id: 0, title: '' }), JSON.stringify({ ...two, id: 0, title: '' }), 'but it is another record, drawn anew');
});

t.test("a session's mock records survive a restart (snapshot and log), and a mock no longer declared is skipped", async (t) => {
  const dir = t.testdir();
  const config = { desk: DESK };
  const before = await withPersistentServer(dir, config, async (server) => {
    const s = await server.newSession({ id: 'kept', seed: 'p' });
    const created = await server.request('POST', inSession(s, '/desk/tickets'), { title: 'Screen flickers', priority: 'normal' });
    await server.request('PATCH', inSession(s, '/desk/tickets/t_101'), { status: 'closed' });
    await server.request('DELETE', inSession(s, '/desk/tickets/t_100'));
    return { id: created.body.ticketId as string, state: (await server.state(s)).desk, diff: (await server.request('GET', `/sessions/${s}/diff`)).body.desk };
  });
  await withPersistentServer(dir, config, async (server) => {
    t.same((await server.state('kept')).desk, before.state, "the mock's records are back");
    t.same((await server.request('GET', '/sessions/kept/diff')).body.desk, before.diff, 'and so is the diff');
    const next = await server.request('POST', inSession('kept', '/desk/tickets'), { title: 'Mouse lost', priority: 'low' });
    t.not(next.body.ticketId, before.id, 'a new record gets a new id after the restart');
    t.equal((await server.request('GET', inSession('kept', '/desk/tickets/t_100'))).status, 404, 'the deleted record stays deleted');
  });
  await withPersistentServer(dir, {}, async (server) => {
    const reply = await server.request('GET', '/sessions/kept');
    t.equal(reply.status, 200, 'the session is read back without the mock');
    t.notOk((await server.state('kept')).desk, 'its records have nowhere to go');
  });
});

t.test('a mock declared again starts every session afresh; one removed leaves the state', async (t) => {
  const server = await mockServer(t, { desk: DESK }, { proxyExec: true });
  const s = await server.newSession({ seed: 'again' });
  await server.request('DELETE', inSession(s, '/desk/tickets/t_100'));
  t.same(Object.keys((await server.state(s)).desk.tickets), ['t_101']);
  const put = await server.request('PUT', '/admin/proxies/desk', { openapi: `${DOCS}/helpdesk.yaml` });
  t.equal(put.status, 200);
  t.same((await server.state(s)).desk, { tickets: {} }, 'the new declaration has no seed file: no records');
  t.equal((await server.request('DELETE', '/admin/proxies/desk')).status, 204);
  t.notOk((await server.state(s)).desk, 'a removed mock leaves the state');
});

t.test('a write sent again under the Idempotency-Key its document declares answers the first one and writes nothing', async (t) => {
  const config = { desk: { openapi: 'examples/helpdesk/openapi.yaml', mock: { seed_file: 'examples/helpdesk/seed.yaml' } } };
  const server = await mockServer(t, config);
  // One lost answer: a retryable fault does not strike twice in a row (max_consecutive 1).
  const s = await server.newSession({ seed: 'key', hazards: { max_consecutive: 1, tools: { desk__create_ticket: { unknown_outcome: 'on' } } } });
  const ticket = { subject: 'Cannot reset my password', requester_email: 'jo.park@example.com' };
  const headers = { 'idempotency-key': 'open-reset-ticket' };
  const lost = await server.request('POST', inSession(s, '/desk/tickets'), ticket, headers).then(
    (reply) => reply.status,
    () => 0,
  );
  t.not(lost, 201, 'the first answer is lost');
  const retry = await server.request('POST', inSession(s, '/desk/tickets'), ticket, headers);
  t.match(retry, { status: 201, body: { id: 'ticket_4', subject: ticket.subject } }, 'the retry answers the ticket the first call opened');
  t.equal((await server.request('GET', inSession(s, '/desk/tickets?status=open&limit=100'))).body.data.length, 2, 'one ticket opened, not two');
  const journal = await server.journal(s);
  t.match(
    journal[0],
    { idempotency: { key: 'open-reset-ticket' }, hazards: [{ kind: 'unknown_outcome' }], result: { id: 'ticket_4' } },
    'the lost answer is journaled',
  );
  t.notOk(journal[0].result.raw, 'as the answer, not the transport');
  t.match(journal[1], { idempotency: { key: 'open-reset-ticket', replayed: 1 }, changes: [] });
  const other = await server.request('POST', inSession(s, '/desk/tickets'), { ...ticket, subject: 'Another' }, headers);
  t.match(other, { status: 422, body: { code: 'idempotency_key_reused', field: 'Idempotency-Key' } }, 'the key with another body is refused');
  const plain = await server.newSession({ seed: 'key' });
  await server.request('POST', inSession(plain, '/desk/tickets'), ticket, headers);
  await server.request('POST', inSession(plain, '/desk/tickets'), ticket);
  t.equal((await server.state(plain)).desk.tickets.ticket_5?.subject, ticket.subject, 'without the key, a second create opens a second ticket');
});
