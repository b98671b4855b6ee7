import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance, InjectOptions } from 'fastify';
import t from 'tap';
import { z } from 'zod';
import { buildCrm } from '../../examples/upstream-crm/app.js';
import { CONTACT_COUNT, type Contact, type Deal, defaultData, recordId } from '../../examples/upstream-crm/data.js';
import { portOption } from '../../examples/shared/port.js';
import { spawnListening } from '../helpers/process.js';

// The example CRM a proxy will sit in front of: its document and its routes agree, and it behaves as a
// real service would (pages, a bearer token, problem details, writes that reads see, determinism).

const here = (name: string) => new URL(`../../examples/upstream-crm/${name}`, import.meta.url);
const document = JSON.parse(readFileSync(here('openapi.json'), 'utf8'));
const METHODS = ['get', 'post', 'patch', 'put', 'delete'];

interface Operation {
  operationId: string;
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
}

interface Exchange {
  status: number;
  headers: Record<string, unknown>;
  body: any;
}

async function send(app: FastifyInstance, options: InjectOptions): Promise<Exchange> {
  const reply = await app.inject(options);
  return { status: reply.statusCode, headers: reply.headers, body: reply.body === '' ? undefined : JSON.parse(reply.body) };
}

const withToken = (token: string) => ({ authorization: `Bearer ${token}` });

/** Every contact, page after page, and how many pages it took. */
async function walk(app: FastifyInstance, limit: number, headers: Record<string, string> = {}): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const query: string = cursor === null ? '' : `&cursor=${cursor}`;
    const reply = await send(app, { url: `/contacts?limit=${limit}${query}`, headers });
    if (reply.status !== 200) throw new Error(`page ${pages + 1}: HTTP ${reply.status}`);
    ids.push(...reply.body.items.map((contact: Contact) => contact.id));
    cursor = reply.body.next_cursor;
    pages += 1;
  } while (cursor !== null && pages < 100);
  return { ids, pages };
}

const allIds = Array.from({ length: CONTACT_COUNT }, (_, i) => recordId('c', i + 1));

t.test('openapi.json is valid OpenAPI 3.1 and names each operation', async (t) => {
  const result = await new Validator().validate(document);
  t.ok(result.valid, 'valid', { errors: result.errors });
  t.equal(document.openapi, '3.1.0');
  const ids = Object.values(document.paths).flatMap((item) => METHODS.flatMap((m) => ((item as any)[m] ? [(item as any)[m].operationId] : [])));
  t.same(ids.sort(), ['close_deal', 'create_contact', 'delete_contact', 'get_contact', 'health', 'list_contacts', 'list_deals', 'update_contact']);
});

t.test('the app serves exactly the documented routes', async (t) => {
  const app = buildCrm();
  const served: string[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) served.push(`${method} ${route.url.replace(/:(\w+)/g, '{$1}')}`);
  });
  await app.ready();
  t.teardown(() => app.close());
  const documented = Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => (item as any)[method]).map((method) => `${method.toUpperCase()} ${path}`),
  );
  t.same(served.sort(), documented.sort());
  t.ok(served.length >= 8, `${served.length} routes`);
});

// One valid call per operation, and the documented failures a call can meet.
const CASES: { operationId: string; params?: Record<string, string>; query?: string; body?: Record<string, unknown>; status: number }[] = [
  { operationId: 'list_contacts', query: 'limit=5&q=acme', status: 200 },
  { operationId: 'list_contacts', query: 'limit=0', status: 400 },
  { operationId: 'get_contact', params: { id: 'c_001' }, status: 200 },
  { operationId: 'get_contact', params: { id: 'c_999' }, status: 404 },
  { operationId: 'create_contact', body: { name: 'Noor Haddad', email: 'noor@cobalt.example', company: 'Cobalt Foods' }, status: 201 },
  { operationId: 'create_contact', body: { name: 'Ada Again', email: defaultData().contacts[0]!.email, company: 'Acme Logistics' }, status: 409 },
  { operationId: 'create_contact', body: { name: 'No Email', company: 'Acme Logistics' }, status: 400 },
  { operationId: 'update_contact', params: { id: 'c_002' }, body: { phone: null }, status: 200 },
  { operationId: 'update_contact', params: { id: 'c_999' }, body: { phone: null }, status: 404 },
  { operationId: 'delete_contact', params: { id: 'c_003' }, status: 204 },
  { operationId: 'delete_contact', params: { id: 'c_003' }, status: 404 },
  { operationId: 'list_deals', query: 'contact_id=c_001', status: 200 },
  { operationId: 'list_deals', status: 200 },
  { operationId: 'list_deals', query: 'contact_id=bob', status: 400 },
  { operationId: 'close_deal', params: { id: 'd_001' }, body: { outcome: 'won' }, status: 200 },
  { operationId: 'close_deal', params: { id: 'd_001' }, body: { outcome: 'lost' }, status: 409 },
  { operationId: 'close_deal', params: { id: 'd_999' }, body: { outcome: 'lost' }, status: 404 },
  { operationId: 'health', status: 200 },
];

t.test('each operation answers with a documented status, content type and body', async (t) => {
  const validator = new Validator();
  await validator.validate(document);
  const resolved = validator.resolveRefs() as typeof document;
  const operations = new Map<string, { method: string; path: string; operation: Operation }>();
  for (const [path, item] of Object.entries(resolved.paths))
    for (const method of METHODS)
      if ((item as any)[method]) operations.set((item as any)[method].operationId, { method, path, operation: (item as any)[method] });
  t.same([...new Set(CASES.map((c) => c.operationId))].sort(), [...operations.keys()].sort(), 'every operation is tried');

  const app = buildCrm({ token: 'secret' });
  t.teardown(() => app.close());
  for (const { operationId, params = {}, query, body, status } of CASES) {
    const { method, path, operation } = operations.get(operationId)!;
    const url = path.replace(/\{(\w+)\}/g, (_, name: string) => params[name]!) + (query ? `?${query}` : '');
    const label = `${operationId} ${method.toUpperCase()} ${url}`;
    if (body !== undefined && status < 400) {
      const requestSchema = z.fromJSONSchema(operation.requestBody!.content['application/json']!.schema as any);
      t.ok(requestSchema.safeParse(body).success, `${label}: the body is valid by the document`);
    }
    const reply = await send(app, {
      method: method.toUpperCase() as 'GET',
      url,
      headers: withToken('secret'),
      ...(body === undefined ? {} : { payload: body }),
    });
    t.equal(reply.status, status, label);
    const documented = operation.responses[String(reply.status)];
    t.ok(documented, `${label}: ${reply.status} is documented`);
    t.match(reply.headers['x-request-id'], /^req_\d{6}$/, `${label}: x-request-id`);
    const content = Object.entries(documented?.content ?? {});
    if (content.length === 0) {
      t.equal(reply.body, undefined, `${label}: no body, as documented`);
      continue;
    }
    const [type, { schema }] = content[0]!;
    t.match(reply.headers['content-type'], new RegExp(`^${type.replace('+', '\\+')}`), `${label}: ${type}`);
    const check = z.fromJSONSchema(schema as any).safeParse(reply.body);
    t.ok(check.success, `${label}: the body matches the documented schema`, { issues: check.error?.issues });
  }
});

t.test('pagination walks every contact exactly once, in id order', async (t) => {
  const app = buildCrm();
  for (const limit of [1, 7, 10, 40, 100]) {
    const { ids, pages } = await walk(app, limit);
    t.same(ids, allIds, `limit ${limit}`);
    t.equal(pages, Math.max(1, Math.ceil(CONTACT_COUNT / limit)), `limit ${limit}: ${pages} pages, none empty`);
  }
  const first = await send(app, { url: '/contacts' });
  t.equal(first.body.items.length, 10, 'ten contacts a page by default');
  t.equal(first.headers['cache-control'], 'private, max-age=30', 'a list says how long it may be cached');

  const search = await send(app, { url: '/contacts?q=BOREALIS&limit=3' });
  t.ok(
    search.body.items.every((c: Contact) => c.company === 'Borealis Labs'),
    'q filters case-insensitively',
  );
  const expected = defaultData().contacts.filter((c) => c.company === 'Borealis Labs').length;
  let seen = search.body.items.length;
  for (let cursor = search.body.next_cursor; cursor !== null; ) {
    const next = await send(app, { url: `/contacts?q=borealis&limit=3&cursor=${cursor}` });
    seen += next.body.items.length;
    cursor = next.body.next_cursor;
  }
  t.equal(seen, expected, 'a filtered walk sees every match');
});

t.test('a record deleted or created mid-walk neither repeats nor skips the others', async (t) => {
  const app = buildCrm();
  const first = await send(app, { url: '/contacts?limit=10' });
  await send(app, { method: 'DELETE', url: '/contacts/c_010' });
  await send(app, { method: 'DELETE', url: '/contacts/c_011' });
  await send(app, { method: 'POST', url: '/contacts', payload: { name: 'Late Arrival', email: 'late@ember.example', company: 'Ember Health' } });
  const ids = first.body.items.map((c: Contact) => c.id);
  for (let cursor = first.body.next_cursor; cursor !== null; ) {
    const next = await send(app, { url: `/contacts?limit=10&cursor=${cursor}` });
    ids.push(...next.body.items.map((c: Contact) => c.id));
    cursor = next.body.next_cursor;
  }
  t.same(ids, [...allIds.filter((id) => id !== 'c_011'), 'c_041'], 'c_010 was read before it went; c_011 never; the new one last');
});

t.test('with a token every route but /health needs it; without one none does', async (t) => {
  const app = buildCrm({ token: 's3cret' });
  const none = await send(app, { url: '/contacts' });
  t.equal(none.status, 401);
  t.equal(none.headers['www-authenticate'], 'Bearer realm="crm"');
  t.match(none.headers['content-type'], /^application\/problem\+json/);
  t.match(none.body, { status: 401, detail: /Authorization: Bearer/ });
  t.equal((await send(app, { url: '/contacts', headers: withToken('wrong') })).status, 401, 'a wrong token');
  t.equal((await send(app, { url: '/contacts', headers: { authorization: 's3cret' } })).status, 401, 'the token without its scheme');
  for (const [method, url] of [
    ['GET', '/contacts/c_001'],
    ['POST', '/contacts'],
    ['PATCH', '/contacts/c_001'],
    ['DELETE', '/contacts/c_001'],
    ['GET', '/deals'],
    ['POST', '/deals/d_001/close'],
    ['GET', '/no-such-route'],
  ] as const)
    t.equal((await send(app, { method, url })).status, 401, `${method} ${url} without the token`);
  t.equal((await send(app, { url: '/contacts/c_001' })).status, 401);
  t.equal((await send(app, { url: '/contacts/c_001', headers: withToken('s3cret') })).status, 200, 'the right token');
  t.same((await send(app, { url: '/health' })).body, { status: 'ok' }, '/health is open');
  t.equal((await send(buildCrm(), { url: '/contacts/c_001', headers: withToken('anything') })).status, 200, 'no token set, none checked');
  t.equal((await send(buildCrm(), { url: '/contacts/c_001' })).status, 200);
});

t.test('bad input is a 400 problem naming the field', async (t) => {
  const app = buildCrm();
  const cases: [InjectOptions, string[]][] = [
    [{ method: 'POST', url: '/contacts', payload: { name: 'Zed', email: 'not-an-email', company: 'Acme Logistics' } }, ['email']],
    [{ method: 'POST', url: '/contacts', payload: { email: 'zed@acme.example', company: 'Acme Logistics' } }, ['name']],
    [{ method: 'POST', url: '/contacts', payload: { name: ' ', email: 'zed@acme.example', company: 'Acme Logistics', vip: true } }, ['name', 'vip']],
    [{ method: 'POST', url: '/contacts' }, ['(body)']],
    [{ method: 'PATCH', url: '/contacts/c_001', payload: {} }, ['(body)']],
    [{ method: 'PATCH', url: '/contacts/c_001', payload: { zip: '12345' } }, ['zip']],
    [{ method: 'GET', url: '/contacts?limit=0' }, ['limit']],
    [{ method: 'GET', url: '/contacts?limit=ten' }, ['limit']],
    [{ method: 'GET', url: '/contacts?cursor=not-ours' }, ['cursor']],
    [{ method: 'GET', url: '/deals?contact_id=1' }, ['contact_id']],
    [{ method: 'POST', url: '/deals/d_002/close', payload: { outcome: 'maybe' } }, ['outcome']],
  ];
  for (const [request, fields] of cases) {
    const reply = await send(app, request);
    const label = `${request.method} ${request.url} ${JSON.stringify(request.payload ?? '')}`;
    t.equal(reply.status, 400, label);
    t.match(reply.headers['content-type'], /^application\/problem\+json/, label);
    t.same(
      reply.body.errors.map((error: { field: string }) => error.field),
      fields,
      `${label} names ${fields.join(', ')}`,
    );
    for (const field of fields) t.match(reply.body.detail, field, `${label}: the detail names ${field}`);
  }
  const broken = await send(app, { method: 'POST', url: '/contacts', headers: { 'content-type': 'application/json' }, payload: '{"name":' });
  t.match(broken, { status: 400, body: { status: 400, title: 'Bad Request' } }, 'malformed JSON is a problem too');
  t.match(await send(app, { method: 'POST', url: '/contacts', headers: { 'content-type': 'text/csv' }, payload: 'a,b' }), {
    status: 415,
    body: { status: 415 },
  });
  t.equal((await send(app, { url: '/contacts/c_001' })).status, 200, 'nothing was written');
  t.equal((await walk(app, 100)).ids.length, CONTACT_COUNT);
});

t.test('writes change what reads return', async (t) => {
  const app = buildCrm();
  const created = await send(app, {
    method: 'POST',
    url: '/contacts',
    payload: { name: 'Noor Haddad', email: 'Noor@Cobalt.example', company: 'Cobalt Foods' },
  });
  t.equal(created.status, 201);
  t.same(created.body, { id: 'c_041', name: 'Noor Haddad', email: 'Noor@Cobalt.example', company: 'Cobalt Foods', phone: null });
  t.equal(created.headers['location'], '/contacts/c_041');
  t.same((await send(app, { url: '/contacts/c_041' })).body, created.body, 'it reads back');
  t.same(
    (await send(app, { url: '/contacts?q=noor' })).body.items.map((c: Contact) => c.id),
    ['c_041'],
    'a search finds it',
  );
  t.equal(
    (await send(app, { method: 'POST', url: '/contacts', payload: { name: 'Noor Twin', email: 'noor@cobalt.example', company: 'Cobalt Foods' } })).status,
    409,
    'its email is taken now, whatever the case',
  );

  const patched = await send(app, { method: 'PATCH', url: '/contacts/c_041', payload: { company: 'Ember Health', phone: '+1-555-0199' } });
  t.same(patched.body, { ...created.body, company: 'Ember Health', phone: '+1-555-0199' });
  t.same((await send(app, { url: '/contacts/c_041' })).body, patched.body, 'the change reads back');
  t.same(
    (await send(app, { method: 'PATCH', url: '/contacts/c_041', payload: { email: 'Noor@Cobalt.example' } })).status,
    200,
    'its own email is not a conflict',
  );

  t.equal((await send(app, { method: 'DELETE', url: '/contacts/c_041' })).status, 204);
  t.equal((await send(app, { url: '/contacts/c_041' })).status, 404, 'gone');
  t.same((await walk(app, 25)).ids, allIds, 'the list is as it started');
  t.equal(
    (await send(app, { method: 'POST', url: '/contacts', payload: { name: 'Next', email: 'next@acme.example', company: 'Acme' } })).body.id,
    'c_042',
    'ids are not reused',
  );

  const before = (await send(app, { url: '/deals?contact_id=c_001' })).body as Deal[];
  t.same(
    before.map((deal) => [deal.id, deal.stage]),
    [
      ['d_001', 'open'],
      ['d_013', 'open'],
    ],
  );
  const closed = await send(app, { method: 'POST', url: '/deals/d_013/close', payload: { outcome: 'lost' } });
  t.same(closed.body, { ...before[1], stage: 'lost' });
  t.same((await send(app, { url: '/deals?contact_id=c_001' })).body, [before[0], closed.body], 'the list shows the close');
  t.match(await send(app, { method: 'POST', url: '/deals/d_013/close', payload: { outcome: 'won' } }), {
    status: 409,
    body: { detail: /already closed \(lost\)/ },
  });
  t.equal((await send(app, { url: '/deals' })).body.length, 15);
  t.same((await send(app, { url: '/deals?contact_id=c_002' })).body, [], 'a contact without deals');
});

t.test('two fresh builds answer identically; one build never sees another one writes', async (t) => {
  const script: InjectOptions[] = [
    { url: '/contacts?limit=4' },
    { method: 'POST', url: '/contacts', payload: { name: 'Same', email: 'same@acme.example', company: 'Acme Logistics' } },
    { method: 'PATCH', url: '/contacts/c_005', payload: { name: 'Elif Renamed' } },
    { method: 'POST', url: '/deals/d_002/close', payload: { outcome: 'won' } },
    { url: '/deals' },
    { url: '/contacts?limit=50' },
    { url: '/missing' },
  ];
  const run = async () => {
    const app = buildCrm();
    const answers = [];
    for (const request of script) {
      const reply = await app.inject(request);
      answers.push({ status: reply.statusCode, requestId: reply.headers['x-request-id'], body: reply.body });
    }
    return answers;
  };
  const first = await run();
  t.same(await run(), first);
  t.equal(first.at(-1)?.requestId, 'req_000007', 'request ids count from 1 in each build');
  t.equal((await send(buildCrm(), { url: '/contacts/c_041' })).status, 404, "a new build starts from the default data, not the last one's");
  t.same(defaultData(), defaultData());
});

t.test('a build takes its own data, and leaves the caller its copy', async (t) => {
  const data = { contacts: [{ id: 'c_007', name: 'Only One', email: 'only@acme.example', company: 'Acme Logistics', phone: null }], deals: [] };
  const app = buildCrm({ data });
  t.same((await walk(app, 10)).ids, ['c_007']);
  t.equal((await send(app, { method: 'POST', url: '/contacts', payload: { name: 'Two', email: 'two@acme.example', company: 'Acme' } })).body.id, 'c_008');
  await send(app, { method: 'PATCH', url: '/contacts/c_007', payload: { name: 'Changed' } });
  t.equal(data.contacts[0]!.name, 'Only One', "the caller's records are untouched");
  t.equal(data.contacts.length, 1);
});

t.test('main.ts listens on --port and serves the CRM', async (t) => {
  const server = await spawnListening(process.execPath, ['--import', 'tsx', here('main.ts').pathname, '--port', '0'], {
    env: { ...process.env, CRM_TOKEN: 'cli-token' },
  });
  t.teardown(() => server.child.kill());
  t.match(server.output(), /crm listening at http:\/\/127\.0\.0\.1:\d+ \(bearer token required\)/);
  t.same(await (await fetch(`${server.origin}/health`)).json(), { status: 'ok' });
  t.equal((await fetch(`${server.origin}/contacts`)).status, 401);
  const page = await fetch(`${server.origin}/contacts?limit=2`, { headers: withToken('cli-token') });
  t.equal(page.headers.get('x-request-id'), 'req_000003');
  t.same(
    ((await page.json()) as { items: Contact[] }).items.map((c) => c.id),
    ['c_001', 'c_002'],
  );
});

t.test('the port comes from --port, else PORT, else the default', async (t) => {
  t.equal(portOption(9090, [], {}), 9090);
  t.equal(portOption(9090, [], { PORT: '' }), 9090);
  t.equal(portOption(9090, [], { PORT: '8181' }), 8181);
  t.equal(portOption(9090, ['--port', '9190'], { PORT: '8181' }), 9190, '--port wins');
  t.equal(portOption(9090, ['--port=0'], {}), 0);
  t.throws(() => portOption(9090, ['--port', 'http'], {}), /Invalid port 'http'/);
  t.throws(() => portOption(9090, [], { PORT: '70000' }), /Invalid port '70000'/);
});
