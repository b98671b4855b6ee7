import t from 'tap';
import { parseProxyConfig } from '../../../server/proxy/config.js';
import { buildUpstreams } from '../../../server/proxy/proxies.js';
import type { HttpProxy } from '../../../server/proxy/upstream.js';
import { startServer } from '../../helpers/server.js';

// Readings of a document that `wildtools mock-check` showed wrong on public documents: a POST at a record (the
// Swagger petstore's `POST /pet/{petId}`) made a create, a PUT on a child lost its parent, and a record whose
// schema has no id member got a string id that an integer or UUID id parameter refused (GitHub's page builds).

const item = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } };
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const answer = (schema: unknown) => ({ description: 'ok', ...json(schema) });
const param = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
const document = {
  openapi: '3.0.3',
  info: { title: 'lists', version: '1' },
  paths: {
    '/lists': { post: { operationId: 'createList', requestBody: json(item), responses: { '201': answer(item) } } },
    // Its GET answers one record, whose `tags` array makes it look like a list envelope.
    '/lists/{list_id}': {
      parameters: [param('list_id')],
      get: { operationId: 'getList', responses: { '200': answer(item) } },
      post: { operationId: 'touchList', responses: { '200': { description: 'touched' } } },
    },
    '/lists/{list_id}/items': {
      parameters: [param('list_id')],
      get: { operationId: 'listItems', responses: { '200': answer({ type: 'array', items: item }) } },
      post: { operationId: 'addItem', requestBody: json(item), responses: { '201': answer(item) } },
    },
    '/lists/{list_id}/items/{item_id}': {
      parameters: [param('list_id'), param('item_id')],
      get: { operationId: 'getItem', responses: { '200': answer(item) } },
      put: { operationId: 'replaceItem', requestBody: json(item), responses: { '200': answer(item) } },
      delete: { operationId: 'deleteItem', responses: { '204': { description: 'gone' } } },
    },
  },
};

async function listsMock(t: { teardown(fn: () => unknown): void }) {
  const [upstream] = await buildUpstreams(parseProxyConfig({ lists: { openapi: document } }, 'test'), 'test');
  return { upstream: upstream as HttpProxy, server: await startServer(t, { proxies: [upstream!] }) };
}

t.test('a POST at a record is no create; a POST below one, where the path lists records, is', async (t) => {
  const { upstream, server } = await listsMock(t);
  const roles = Object.fromEntries(upstream.mock!.roles().map((one) => [one.name, one.role]));
  t.match(roles['touch_list'], { resource: 'lists', action: 'none', idParam: 'list_id' });
  t.match(roles['add_item'], { resource: 'items', action: 'create', parents: [{ resource: 'lists', param: 'list_id' }] });
  const s = await server.newSession({ seed: 'r' });
  t.equal((await server.request('POST', `/s/${s}/proxy/lists/lists`, { name: 'groceries' })).status, 201);
  t.equal((await server.request('POST', `/s/${s}/proxy/lists/lists/1`)).status, 200);
  t.same(Object.keys((await server.state(s))['lists']['lists']), ['1'], 'touching a list makes no other');
});

t.test('a PUT on a child keeps it under its parent: read, listed and deleted there after', async (t) => {
  const { server } = await listsMock(t);
  const s = await server.newSession({ seed: 'r' });
  const at = (path: string) => `/s/${s}/proxy/lists${path}`;
  t.equal((await server.request('POST', at('/lists'), { name: 'groceries' })).status, 201);
  const added = await server.request('POST', at('/lists/1/items'), { name: 'milk' });
  t.equal(added.status, 201);
  const replaced = await server.request('PUT', at(`/lists/1/items/${added.body.id}`), { name: 'oat milk' });
  t.match(replaced, { status: 200, body: { name: 'oat milk', list_id: '1' } });
  t.match(await server.request('GET', at(`/lists/1/items/${added.body.id}`)), { status: 200, body: { name: 'oat milk' } });
  t.same(
    (await server.request('GET', at('/lists/1/items'))).body.map((one: { name: string }) => one.name),
    ['oat milk'],
  );
  t.equal((await server.request('DELETE', at(`/lists/1/items/${added.body.id}`))).status, 204);
});

t.test("a record without an id member gets an id of its id parameter's type: an integer, a UUID", async (t) => {
  const note = { type: 'object', properties: { text: { type: 'string' } } };
  const idOf = (schema: unknown) => ({ name: 'id', in: 'path', required: true, schema });
  const notes = (schema: unknown) => ({
    '/notes': { post: { operationId: 'addNote', requestBody: json(note), responses: { '201': answer(note) } } },
    '/notes/{id}': { parameters: [idOf(schema)], get: { operationId: 'getNote', responses: { '200': answer(note) } } },
  });
  const config = parseProxyConfig(
    {
      counted: { openapi: { ...document, paths: notes({ type: 'integer' }) } },
      drawn: { openapi: { ...document, paths: notes({ type: 'string', format: 'uuid' }) } },
      named: { openapi: { ...document, paths: notes({ type: 'string' }) } },
    },
    'test',
  );
  const server = await startServer(t, { proxies: await buildUpstreams(config, 'test') });
  const s = await server.newSession({ seed: 'r' });
  for (const [name, id] of [
    ['counted', /^1$/],
    ['drawn', /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/],
    ['named', /^note_1$/],
  ] as const) {
    const made = await server.request('POST', `/s/${s}/proxy/${name}/notes`, { text: 'milk' });
    t.equal(made.status, 201, name);
    t.match(String(made.body.id), id, `${name}: the id`);
    t.match(await server.request('GET', `/s/${s}/proxy/${name}/notes/${made.body.id}`), { status: 200, body: { text: 'milk' } }, `${name}: read back`);
  }
});

t.test("a collection's GET lists records only when its answer holds records, or answers no schema for a kept resource", async (t) => {
  const record = { type: 'object', properties: { id: { type: 'integer' } } };
  const reads = {
    openapi: '3.0.3',
    info: { title: 'reads', version: '1' },
    paths: {
      '/user/logout': { get: { operationId: 'logoutUser', responses: { default: { description: 'done' } } } },
      '/tags': { get: { operationId: 'listTags', responses: { '200': answer({ type: 'array', items: { type: 'string' } }) } } },
      '/photos': {
        get: {
          operationId: 'listPhotos',
          responses: { '200': answer({ type: 'object', properties: { urls: { type: 'array', items: { type: 'string' } } } }) },
        },
      },
      '/notes': {
        get: { operationId: 'listNotes', responses: { '200': { description: 'the notes, no schema' } } },
        post: { operationId: 'addNote', requestBody: json(record), responses: { '201': answer(record) } },
      },
    },
  };
  const [upstream] = await buildUpstreams(parseProxyConfig({ reads: { openapi: reads } }, 'test'), 'test');
  const roles = Object.fromEntries((upstream as HttpProxy).mock!.roles().map(({ name, role }) => [name, role.action]));
  t.same(Object.keys(roles).sort(), ['add_note', 'list_notes', 'list_photos', 'list_tags', 'logout_user'], 'every operation has a role');
  t.equal(roles['logout_user'], 'none', 'no schema, nothing else keeps "logout": no list');
  t.equal(roles['list_tags'], 'none', 'a list of strings is no list of records');
  t.equal(roles['list_photos'], 'none', 'an object whose array holds strings is no envelope');
  t.equal(roles['list_notes'], 'list', 'no schema, but notes are created: the notes');
  const server = await startServer(t, { proxies: [upstream!] });
  await server.request('POST', '/proxy/reads/notes', { id: 3 });
  t.equal((await server.request('GET', '/proxy/reads/notes')).text, '[{"id":3}]', 'listed');
  t.equal((await server.request('GET', '/proxy/reads/user/logout')).status, 200, 'answered, nothing kept');
});
