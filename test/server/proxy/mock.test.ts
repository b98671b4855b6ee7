import t from 'tap';
import { parseProxyConfig } from '../../../server/proxy/config.js';
import { buildUpstreams } from '../../../server/proxy/proxies.js';
import { startServer, type TestServer } from '../../helpers/server.js';

// Mock mode: an upstream given only by its OpenAPI document, served with validation, generated answers and
// per-session records, under the proxy's hazards. Two documents written for these tests: helpdesk.yaml
// (3.0: $refs, allOf, oneOf, path-level and header parameters, readOnly/writeOnly, a non-RESTful operation)
// and library.json (3.1: type lists, numeric exclusiveMinimum, anyOf/const, an x-wildtools override).

const DOCS = 'test/server/proxy/mock-documents';

async function mockServer(t: { teardown(fn: () => unknown): void }, options: { hazardEnv?: NodeJS.ProcessEnv } = {}): Promise<TestServer> {
  const config = parseProxyConfig(
    {
      desk: { openapi: `${DOCS}/helpdesk.yaml`, mock: { seed_file: `${DOCS}/seed.yaml` } },
      library: { openapi: `${DOCS}/library.json` },
    },
    'test',
  );
  const proxies = await buildUpstreams(config, 'test');
  return startServer(t, { proxies, ...options });
}

const inSession = (session: string, path: string) => `/s/${session}/proxy${path}`;

t.test('a declaration with an OpenAPI document and no upstream URL is a mock; one with neither is refused', async (t) => {
  const config = parseProxyConfig({ desk: { openapi: `${DOCS}/helpdesk.yaml`, mock: { seed_file: 'x.json' } } }, 'test');
  t.same(config['desk'], { openapi: `${DOCS}/helpdesk.yaml`, mock: { seed_file: 'x.json' }, timeout_ms: 10_000, max_body_bytes: 1_048_576, rules: [] });
  t.throws(() => parseProxyConfig({ desk: { timeout_ms: 1000 } }, 'x'), /desk\.upstream: a base URL, a recording to replay, or an openapi document/);
  t.throws(() => parseProxyConfig({ desk: { upstream: 'http://h', openapi: 'a.json', mock: {} } }, 'x'), /desk\.mock: mock options apply only/);
  t.throws(() => parseProxyConfig({ desk: { replay: 'r.jsonl', openapi: 'a.json', mock: {} } }, 'x'), /desk\.mock: mock options apply only/, 'nor to a replay');
  t.throws(() => parseProxyConfig({ desk: { openapi: 'a.json', mock: { seeds: 'x' } } }, 'x'), /desk\.mock: Unrecognized key/);
  await t.rejects(buildUpstreams(parseProxyConfig({ desk: { openapi: `${DOCS}/helpdesk.yaml`, mock: { seed_file: `${DOCS}/none.json` } } }, 't'), 't'), {
    message: /desk: mock\.seed_file: .*none\.json/,
  });
});

t.test('requests are validated against the document: a 400 problem naming the field, nothing kept', async (t) => {
  const server = await mockServer(t);
  const s = await server.newSession({ seed: 'v' });
  const cases: [string, string, unknown, Record<string, string>, string][] = [
    ['POST', '/desk/tickets', { title: 'ab', priority: 'low' }, {}, 'title'],
    ['POST', '/desk/tickets', { title: 'Broken', priority: 'someday' }, {}, 'priority'],
    ['POST', '/desk/tickets', { priority: 'low' }, {}, 'title'],
    ['POST', '/desk/tickets', { title: 'Broken', priority: 'low', estimate_hours: 99 }, {}, 'estimate_hours'],
    ['POST', '/desk/tickets', { title: 'Broken', priority: 'low', tags: ['a', 'b', 'c', 'd'] }, {}, 'tags'],
    ['POST', '/desk/tickets', { title: 'Broken', priority: 'low', contact: { email: 'nope' } }, {}, 'contact'],
    ['GET', '/desk/tickets?limit=0', undefined, {}, 'limit'],
    ['GET', '/desk/tickets?limit=ten', undefined, {}, 'limit'],
    ['GET', '/desk/tickets?status=lost', undefined, {}, 'status'],
    ['POST', '/desk/tickets/t_100/archive', undefined, {}, 'X-Reason'],
    ['PATCH', '/desk/tickets/t_100', { status: 'gone' }, {}, 'status'],
    ['GET', '/library/books/0', undefined, {}, 'id'],
    ['POST', '/library/books', { title: 'Dune', isbn: '123' }, {}, 'isbn'],
    ['POST', '/library/books', { title: 'Dune', isbn: '9780441013593', price: 0 }, {}, 'price'],
    ['POST', '/library/books', { title: 'Dune', isbn: '9780441013593', format: 'scroll' }, {}, 'format'],
  ];
  for (const [method, path, body, headers, field] of cases) {
    const reply = await server.request(method as 'GET', inSession(s, path), body, headers);
    t.equal(reply.status, 400, `${method} ${path}: 400`);
    t.match(reply.body, { code: 'invalid_input', field, errors: [{ field }] }, `${method} ${path}: names ${field}`);
  }
  const list = await server.request('GET', inSession(s, '/desk/tickets'));
  t.equal(list.body.data.length, 2, 'only the seed records: no refused request was kept');
  t.equal((await server.request('POST', inSession(s, '/desk/tickets'), '{"title": ', { 'content-type': 'application/json' })).status, 400, 'not JSON');
});

t.test('answers come from examples, else generated from the schema with the seed: same seed, same body', async (t) => {
  const server = await mockServer(t);
  t.same((await server.request('GET', '/proxy/desk/health')).body, { status: 'ok', version: '1.0.0' }, "the document's example");
  const archive = async (seed: string) => {
    const s = await server.newSession({ seed });
    return (await server.request('POST', inSession(s, '/desk/tickets/t_100/archive'), undefined, { 'x-reason': 'duplicate' })).body;
  };
  const [a, again, b] = [await archive('alpha'), await archive('alpha'), await archive('beta')];
  t.same(a, again, 'the same seed gives the same body');
  t.not(JSON.stringify(a), JSON.stringify(b), 'another seed gives another body');
  for (const body of [a, b]) {
    t.match(body.receipt, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'uuid');
    t.ok(!Number.isNaN(Date.parse(body.archived_at)) && /T.*Z$/.test(body.archived_at), 'date-time');
    t.match(body.by, /^[^@]+@[^@]+\.[a-z]+$/, 'email');
    t.ok(body.score >= 1 && body.score <= 5 && Number.isInteger(body.score), 'integer in its range');
    t.ok(['email', 'chat', 'phone'].includes(body.channel), 'enum');
    t.ok(URL.canParse(body.link), 'uri');
    t.match(body.day, /^\d{4}-\d{2}-\d{2}$/, 'date');
  }
});

t.test('records live per session: create, read, list, change, delete; sessions isolated; reset starts over', async (t) => {
  const server = await mockServer(t);
  const [one, two] = [await server.newSession({ seed: 's' }), await server.newSession({ seed: 's' })];
  const created = await server.request('POST', inSession(one, '/desk/tickets'), {
    title: 'Screen flickers',
    priority: 'normal',
    ticketId: 'ignored-read-only',
    portal_password: 'correct horse',
  });
  t.equal(created.status, 201);
  const id = created.body.ticketId as string;
  t.match(
    created.body,
    { title: 'Screen flickers', priority: 'normal', ticketId: 'ticket_102' },
    'the readOnly id is generated past the seed records, not taken',
  );
  t.notOk('portal_password' in created.body, 'a writeOnly member never shows in an answer');
  t.ok(created.body.created_at, 'readOnly members are generated');
  t.same((await server.request('GET', inSession(one, `/desk/tickets/${id}`))).body, created.body, 'read back');
  const list = await server.request('GET', inSession(one, '/desk/tickets'));
  t.same(
    list.body.data.map((ticket: { ticketId: string }) => ticket.ticketId),
    ['t_100', 't_101', id],
    'listed in the envelope the schema wants, seed records first',
  );
  t.equal(list.body.total, 3, 'the envelope counts them');
  t.notOk(JSON.stringify(list.body).includes('hunter2'), "a seed record's writeOnly member is not listed");
  const patched = await server.request('PATCH', inSession(one, `/desk/tickets/${id}`), { status: 'closed' });
  t.match(patched.body, { ticketId: id, title: 'Screen flickers', status: 'closed' }, 'PATCH merges');
  const replaced = await server.request('PUT', inSession(one, `/desk/tickets/${id}`), { title: 'Screen replaced', priority: 'low' });
  t.match(replaced.body, { ticketId: id, title: 'Screen replaced', priority: 'low', created_at: created.body.created_at }, 'PUT replaces, keeping readOnly');
  t.notOk('status' in replaced.body, 'PUT drops what it does not restate');
  t.equal((await server.request('GET', inSession(two, `/desk/tickets/${id}`))).status, 404, 'another session does not see it');
  t.equal((await server.request('GET', inSession(two, '/desk/tickets'))).body.data.length, 2, "another session's list: the seed only");
  t.equal((await server.request('DELETE', inSession(one, `/desk/tickets/${id}`))).status, 204, 'DELETE answers as declared');
  const gone = await server.request('GET', inSession(one, `/desk/tickets/${id}`));
  t.match(gone, { status: 404, body: { code: 'not_found', field: 'ticketId' } }, '404 problem after DELETE');
  t.equal((await server.request('DELETE', inSession(one, '/desk/tickets/t_100'))).status, 204);
  t.equal((await server.request('POST', `/sessions/${one}/reset`)).status < 300, true, 'reset');
  t.equal((await server.request('GET', inSession(one, '/desk/tickets/t_100'))).status, 200, 'a reset session has the seed records again');

  const book = await server.request('POST', inSession(two, '/library/books'), { title: 'Dune', isbn: '9780441013593', id: 77 });
  t.match(book, { status: 201, body: { id: 1, title: 'Dune' } }, 'an integer id counts up (a readOnly id given is ignored)');
  t.same((await server.request('GET', inSession(two, '/library/books'))).body, [book.body], 'a list answered as an array');
  const loan = await server.request('POST', inSession(two, '/library/books/1/borrow'), { reader: 'ann@example.org', due: '2026-12-01' });
  t.match(loan.body, { reader: 'ann@example.org', id: /^[0-9a-f-]{36}$/ }, 'x-wildtools makes borrow a create of loans');
  t.same((await server.request('GET', inSession(two, '/library/loans'))).body.items, [loan.body], 'listed under loans');
  t.match(await server.request('DELETE', inSession(two, '/library/books/1')), { status: 200, body: { id: 1 } });
  t.equal((await server.request('GET', inSession(two, '/library/books/1'))).status, 404);
});

t.test('hazards apply to mock operations as to proxied ones, and are journaled', async (t) => {
  const server = await mockServer(t);
  const s = await server.newSession({ seed: 'h', hazards: { tools: { desk__get_ticket: { outage: 'on' } } } });
  const down = await server.request('GET', inSession(s, '/desk/tickets/t_100'));
  t.equal(down.status, 503, 'the outage answers 503');
  t.equal((await server.request('GET', inSession(s, '/desk/tickets'))).status, 200, 'other operations still work');
  const journal = await server.journal(s);
  t.match(journal, [
    { domain: 'desk', tool: 'get_ticket', status: 503, hazards: [{ kind: 'outage' }] },
    { domain: 'desk', tool: 'list_tickets', status: 200, hazards: [] },
  ]);
  const created = await server.request('POST', inSession(s, '/desk/tickets'), { title: 'Journaled', priority: 'low', portal_password: 'p4ssw0rd!' });
  const entry = (await server.journal(s)).at(-1);
  t.match(entry, { tool: 'create_ticket', status: 201, args: { title: 'Journaled', portal_password: '[redacted]' }, proxy: { method: 'POST' } });
  t.equal(created.status, 201);
});

t.test('over an admin call, a mock may read no local file and fetch its document from no host', async (t) => {
  const { checkAdminDeclaration } = await import('../../../server/proxy/admin-policy.js');
  const refused = (data: unknown): Record<string, unknown> | undefined => {
    try {
      checkAdminDeclaration(parseProxyConfig({ desk: data }, 'x')['desk']!);
      return undefined;
    } catch (error) {
      return (error as { problem: Record<string, unknown> }).problem;
    }
  };
  t.match(refused({ openapi: `${DOCS}/helpdesk.yaml` }), { status: 403, code: 'proxy_not_allowed', field: 'openapi' }, 'a document file');
  t.match(refused({ openapi: 'http://127.0.0.1:9/openapi.json' }), { status: 403, field: 'openapi', detail: /a mock has no upstream/ }, 'a URL');
  t.match(refused({ openapi: 'http://127.0.0.1:9/openapi.json', mock: { seed_file: 'seed.json' } }), { status: 403, field: 'mock.seed_file' }, 'a seed file');
});

t.test('spec_drift, unknown_outcome and truncated on mock operations', async (t) => {
  const server = await mockServer(t);
  const drift = await server.newSession({ seed: 'd', hazards: { tools: { desk__create_ticket: { spec_drift: 'on' } } } });
  const body = { title: 'Drifting', priority: 'low', estimate_hours: 3 };
  t.equal((await server.request('POST', inSession(drift, '/desk/tickets'), body)).status, 201, 'call 1: as documented');
  const old = await server.request('POST', inSession(drift, '/desk/tickets'), body);
  t.equal(old.status, 400, 'call 2: the old name refused');
  const renamed = (await server.journal(drift)).at(-1).hazards[0].renamed as { from: keyof typeof body; to: string };
  const sent = { ...Object.fromEntries(Object.entries(body).filter(([name]) => name !== renamed.from)), [renamed.to]: body[renamed.from] };
  const created = await server.request('POST', inSession(drift, '/desk/tickets'), sent);
  t.match(created, { status: 201, body: { [renamed.from]: body[renamed.from] } }, `the new name ${renamed.to} reaches the mock as ${renamed.from}`);

  const lost = await server.newSession({ seed: 'u', hazards: { tools: { desk__create_ticket: { unknown_outcome: 'on' } } } });
  // The dropped answer may be a reset connection: status 0 then.
  const dropped = await server.request('POST', inSession(lost, '/desk/tickets'), { title: 'Lost answer', priority: 'low' }).catch(() => ({ status: 0 }));
  t.ok(dropped.status >= 500 || dropped.status === 0, `the answer is dropped (${dropped.status})`);
  t.match((await server.journal(lost)).at(-1), { tool: 'create_ticket', hazards: [{ kind: 'unknown_outcome' }] }, 'journaled');
  const after = (await server.request('GET', inSession(lost, '/desk/tickets'))).body.data.map((ticket: { title: string }) => ticket.title);
  t.ok(after.includes('Lost answer'), 'yet the write happened: the record is there');

  const paged = await server.newSession({ seed: 'p', hazards: { tools: { library__list_books: { truncated: 'on' } } } });
  for (const n of [1, 2, 3, 4, 5]) await server.request('POST', inSession(paged, '/library/books'), { title: `Book ${n}`, isbn: `978044101359${n}` });
  const page = await server.request('GET', inSession(paged, '/library/books'));
  t.equal(page.status, 200);
  t.ok(JSON.stringify(page.body).includes('next_page_token'), 'a part of the list with a token for the rest');
});

t.test('the listing and the served document show a mock as one', async (t) => {
  const server = await mockServer(t);
  const listed = (await server.request('GET', '/proxies')).body as { name: string; upstream: string; operations: { name: string }[] }[];
  t.match(
    listed.find((proxy) => proxy.name === 'desk'),
    { upstream: `mock of ${DOCS}/helpdesk.yaml` },
  );
  t.same(
    listed
      .find((proxy) => proxy.name === 'library')
      ?.operations.map((operation) => operation.name)
      .sort(),
    ['add_book', 'borrow_book', 'get_book', 'list_books', 'list_loans', 'remove_book'],
  );
  const served = await server.request('GET', '/proxy/library/openapi.json');
  t.match(served.body, { openapi: '3.1.0', servers: [{ url: '/proxy/library', description: `wildtools mock of ${DOCS}/library.json` }] });
});
