import t from 'tap';
import { parseProxyConfig } from '../../../server/proxy/config.js';
import { resolve } from '../../../server/proxy/operations.js';
import { buildUpstreams } from '../../../server/proxy/proxies.js';
import { startServer, type TestServer } from '../../helpers/server.js';

// What a mock's declaration may say beyond its document: the role of an operation the paths misread
// (mock.operations), the most records a session may hold (mock.max_records); and what the mock makes of
// a few shapes of documents: an id given by the client, $ref siblings, its messages.

const DOCS = 'test/server/proxy/mock-documents';
const inSession = (session: string, path: string) => `/s/${session}/proxy${path}`;

async function mockServer(t: { teardown(fn: () => unknown): void }, mock: Record<string, unknown>, openapi = `${DOCS}/helpdesk.yaml`): Promise<TestServer> {
  const proxies = await buildUpstreams(parseProxyConfig({ desk: { openapi, mock } }, 'test'), 'test');
  return startServer(t, { proxies });
}

t.test("mock.operations overrides what an operation's path says it does, by name or by method and path", async (t) => {
  for (const key of ['archive_ticket', 'POST /tickets/{ticketId}/archive']) {
    const server = await mockServer(t, {
      seed_file: `${DOCS}/seed.yaml`,
      operations: { [key]: { resource: 'tickets', action: 'delete', id: 'ticketId' } },
    });
    const s = await server.newSession({ seed: 'o' });
    const archived = await server.request('POST', inSession(s, '/desk/tickets/t_100/archive'), undefined, { 'X-Reason': 'duplicate' });
    t.equal(archived.status, 200, key);
    t.equal((await server.request('GET', inSession(s, '/desk/tickets/t_100'))).status, 404, `${key}: archiving now removes the ticket`);
  }
  const plain = await mockServer(t, { seed_file: `${DOCS}/seed.yaml` });
  const s = await plain.newSession({ seed: 'o' });
  await plain.request('POST', inSession(s, '/desk/tickets/t_100/archive'), undefined, { 'X-Reason': 'duplicate' });
  t.equal((await plain.request('GET', inSession(s, '/desk/tickets/t_100'))).status, 200, 'without the override, archive keeps nothing');

  await t.rejects(
    buildUpstreams(parseProxyConfig({ desk: { openapi: `${DOCS}/helpdesk.yaml`, mock: { operations: { archive: { action: 'delete' } } } } }, 't'), 't'),
    { message: /desk: mock\.operations: no operation archive \(operations: archive_ticket, get_ticket, .*, health\)/ },
    'an override naming no operation is refused, with the names there are',
  );
  t.throws(
    () => parseProxyConfig({ desk: { openapi: 'a.yaml', mock: { operations: { x: { action: 'erase' } } } } }, 't'),
    /desk\.mock\.operations\.x\.action/,
    'an unknown action is refused by the config',
  );
});

t.test('mock.max_records bounds what a session keeps per resource: a create beyond it is refused, nothing kept', async (t) => {
  const server = await mockServer(t, { seed_file: `${DOCS}/seed.yaml`, max_records: 3 });
  const s = await server.newSession({ seed: 'm' });
  const create = () => server.request('POST', inSession(s, '/desk/tickets'), { title: 'Screen flickers', priority: 'normal' });
  t.equal((await create()).status, 201, 'the third ticket (two are seeded)');
  const refused = await create();
  t.match(refused, { status: 403, body: { code: 'quota_exceeded', detail: /holds 3 tickets.*mock\.max_records/ } });
  t.equal(Object.keys((await server.state(s)).desk.tickets).length, 3);
  t.equal((await server.request('DELETE', inSession(s, '/desk/tickets/t_100'))).status, 204);
  t.equal((await create()).status, 201, 'room again once one is deleted');

  await t.rejects(
    buildUpstreams(parseProxyConfig({ desk: { openapi: `${DOCS}/helpdesk.yaml`, mock: { seed_file: `${DOCS}/seed.yaml`, max_records: 1 } } }, 't'), 't'),
    { message: /desk: mock: the seed holds 2 tickets, above mock\.max_records \(1\)/ },
  );
});

t.test('a create naming an id a record already has is a 409 naming it; the record stays', async (t) => {
  // Keys whose id the client chooses (not readOnly), as a key-value or a DNS API has them.
  const key = { type: 'object', required: ['id'], properties: { id: { type: 'string' }, value: { type: 'string' } } };
  const json = { content: { 'application/json': { schema: key } } };
  const document = {
    openapi: '3.1.0',
    info: { title: 'keys', version: '1' },
    paths: {
      '/keys': { post: { operationId: 'put_key', requestBody: json, responses: { 201: { description: 'made', ...json } } } },
      '/keys/{id}': { get: { operationId: 'get_key', responses: { 200: { description: 'one', ...json } } } },
    },
  };
  const dir = t.testdir({ 'keys.json': JSON.stringify(document) });
  const server = await mockServer(t, {}, `${dir}/keys.json`);
  const s = await server.newSession({ seed: 'c' });
  t.equal((await server.request('POST', inSession(s, '/desk/keys'), { id: 'colour', value: 'teal' })).status, 201);
  const again = await server.request('POST', inSession(s, '/desk/keys'), { id: 'colour', value: 'red' });
  t.match(again, { status: 409, body: { code: 'already_exists', field: 'id', detail: "key 'colour' already exists." } });
  t.match((await server.request('GET', inSession(s, '/desk/keys/colour'))).body, { id: 'colour', value: 'teal' }, 'the first stays');
});

t.test('members beside a $ref are kept over its target; messages read as English', async (t) => {
  const document = { components: { schemas: { Status: { type: 'string', enum: ['open', 'closed'], description: 'x' } } } };
  t.same(resolve(document, { $ref: '#/components/schemas/Status', example: 'open', description: 'y' }), {
    type: 'string',
    enum: ['open', 'closed'],
    example: 'open',
    description: 'y',
  });
  t.same(resolve(document, { $ref: '#/components/schemas/Status' }), document.components.schemas.Status, 'alone, the target as it is');

  const contact = {
    type: 'object',
    properties: { name: { type: 'string', minLength: 3 }, email: { type: 'string', format: 'email' }, tags: { type: 'array', maxItems: 1 } },
  };
  const body = { content: { 'application/json': { schema: contact } } };
  const api = {
    openapi: '3.1.0',
    info: { title: 'c', version: '1' },
    paths: { '/contacts': { post: { operationId: 'add', requestBody: body, responses: { 201: { description: 'ok' } } } } },
  };
  const dir = t.testdir({ 'contacts.json': JSON.stringify(api) });
  const server = await mockServer(t, {}, `${dir}/contacts.json`);
  const reply = await server.request('POST', '/proxy/desk/contacts', { name: 'ab', email: 'nope', tags: ['a', 'b'] });
  t.same(
    reply.body.errors.map((e: { message: string }) => e.message),
    ['must be at least 3 characters', 'must be an email address', 'must hold at most 1 item'],
  );
});

t.test('over an admin call, without ADMIN_PROXY_EXEC, a mock is declared with its document and records given whole', async (t) => {
  const note = { type: 'object', properties: { id: { type: 'integer', readOnly: true }, text: { type: 'string', minLength: 1 } } };
  const json = { content: { 'application/json': { schema: note } } };
  const list = { content: { 'application/json': { schema: { type: 'array', items: note } } } };
  const document = {
    openapi: '3.1.0',
    info: { title: 'notes', version: '1' },
    paths: {
      '/notes': {
        get: { operationId: 'list_notes', responses: { 200: { description: 'all', ...list } } },
        post: { operationId: 'add_note', requestBody: json, responses: { 201: { description: 'made', ...json } } },
      },
      '/notes/{id}': { get: { operationId: 'get_note', responses: { 200: { description: 'one', ...json } } } },
    },
  };
  const server = await startServer(t);
  const put = await server.request('PUT', '/admin/proxies/notes', { openapi: document, mock: { seed: { notes: [{ id: 7, text: 'milk' }] } } });
  t.match(put, { status: 200, body: { name: 'notes', created: true, upstream: 'mock of an inline document' } });
  const s = await server.newSession({ seed: 'inline' });
  t.same((await server.request('GET', inSession(s, '/notes/notes/7'))).body, { id: 7, text: 'milk' }, 'the records given');
  t.match((await server.request('POST', inSession(s, '/notes/notes'), { text: 'eggs' })).body, { id: 8, text: 'eggs' });
  t.match((await server.request('POST', inSession(s, '/notes/notes'), { text: '' })).body, { status: 400, field: 'text' }, 'validated');
  t.equal((await server.request('GET', `/s/${s}/proxy/notes/openapi.json`)).body.servers[0].description, 'wildtools mock of an inline document');

  const file = await server.request('PUT', '/admin/proxies/other', { openapi: document, mock: { seed_file: 'seed.json' } });
  t.match(file, { status: 403, body: { code: 'proxy_not_allowed', field: 'mock.seed_file' } }, 'a seed file is still refused');
  const both = await server.request('PUT', '/admin/proxies/other', { openapi: document, mock: { seed: {}, seed_file: 'seed.json' } });
  t.match(both, { status: 400, body: { field: 'mock.seed' } }, 'seed or seed_file, not both');
  const none = await server.request('PUT', '/admin/proxies/other', { openapi: { info: {} } });
  t.match(none, { status: 400, body: { field: 'openapi', detail: /the inline document is not an OpenAPI document \(no paths\)/ } });
});

t.test("lists page as the document's parameters say: a size (or its default), a cursor, an offset, a record to start after", async (t) => {
  const proxies = await buildUpstreams(
    parseProxyConfig({ desk: { openapi: 'examples/helpdesk/openapi.yaml', mock: { seed_file: 'examples/helpdesk/seed.yaml' } } }, 'test'),
    'test',
  );
  const server = await startServer(t, { proxies });
  const s = await server.newSession({ seed: 'pages' });
  for (const subject of ['One more', 'Two more', 'Three more'])
    await server.request('POST', inSession(s, '/desk/tickets'), { subject, requester_email: 'jo.park@example.com' });
  const ids = (page: { data: { id: string }[] }) => page.data.map((ticket) => ticket.id);
  const all = (await server.request('GET', inSession(s, '/desk/tickets'))).body;
  t.same(ids(all), ['ticket_1', 'ticket_2', 'ticket_3', 'ticket_4', 'ticket_5', 'ticket_6'], 'within the default size (25): one page');
  t.match(all, { has_more: false, next_cursor: null });

  const first = (await server.request('GET', inSession(s, '/desk/tickets?limit=4'))).body;
  t.same(ids(first), ['ticket_1', 'ticket_2', 'ticket_3', 'ticket_4']);
  t.match(first, { has_more: true, next_cursor: /^mc1\./ }, 'more: a cursor to them');
  const second = (await server.request('GET', inSession(s, `/desk/tickets?limit=4&cursor=${first.next_cursor}`))).body;
  t.same(ids(second), ['ticket_5', 'ticket_6'], 'the cursor gets the rest');
  t.match(second, { has_more: false, next_cursor: null });
  const open = (await server.request('GET', inSession(s, '/desk/tickets?limit=2&status=open'))).body;
  t.same(ids(open), ['ticket_1', 'ticket_4'], 'pages of the filtered list');

  const bad = await server.request('GET', inSession(s, '/desk/tickets?cursor=abc'));
  t.match(bad, { status: 400, body: { field: 'cursor', detail: /cursor: is not a cursor this API handed out/ } }, 'a cursor it never gave is refused');

  const { pageOf } = await import('../../../server/proxy/mock/paging.js');
  const errors: { field: string; message: string }[] = [];
  const declared = [{ name: 'per_page' }, { name: 'page' }, { name: 'offset' }, { name: 'starting_after' }];
  t.same(pageOf({ per_page: 10, page: 3 }, declared, [], errors), { start: 20, size: 10 }, 'a page number counts pages of the size');
  t.same(pageOf({ per_page: 10, offset: 5 }, declared, [], errors), { start: 5, size: 10 }, 'an offset');
  t.same(pageOf({ starting_after: 'b' }, declared, ['a', 'b', 'c'], errors), { start: 2 }, 'after a record, all the rest');
  t.same(errors, []);
  pageOf({ starting_after: 'z' }, declared, ['a'], errors);
  t.same(errors, [{ field: 'starting_after', message: 'names no record (z)' }]);
});
