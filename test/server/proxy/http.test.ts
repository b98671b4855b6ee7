import t from 'tap';
import { parseUpstream } from '../../../server/proxy/config.js';
import { HttpProxy } from '../../../server/proxy/upstream.js';
import { CRM_DOCUMENT, type Method, sameHeaders, startCrm, startProxied } from '../../helpers/proxy.js';
import { startServer } from '../../helpers/server.js';
import { listen, startCrmWithDocument } from './upstreams.js';

const TOKEN = 'crm-secret-token-1234';

t.test('with hazards off, a proxied exchange is the upstream exchange: status, headers and body bytes', async (t) => {
  // Two CRMs with the same data: one called directly, one through the proxy, with the same requests in the same order.
  const direct = await startCrm(t, { token: TOKEN });
  const { proxy, server } = await startProxied(t, { crm: { token: TOKEN } });
  const auth = { authorization: `Bearer ${TOKEN}` };
  const exchanges: [Method, string, unknown?, Record<string, string>?][] = [
    ['GET', '/contacts?limit=3', undefined, auth],
    ['GET', '/contacts?limit=2&q=acme', undefined, auth],
    ['GET', '/contacts/c_007', undefined, auth],
    ['POST', '/contacts', { name: 'Zoe Park', email: 'zoe@park.example', company: 'Park & Co' }, auth],
    ['PATCH', '/contacts/c_003', { phone: '+1-555-0999' }, auth],
    ['DELETE', '/contacts/c_004', undefined, auth],
    ['GET', '/contacts/c_004', undefined, auth],
    ['POST', '/contacts', { name: '', email: 'not-an-email' }, auth],
    ['POST', '/deals/d_001/close', { outcome: 'won' }, auth],
    ['POST', '/deals/d_001/close', { outcome: 'won' }, auth],
    ['GET', '/deals?contact_id=c_001', undefined, auth],
    ['GET', '/contacts/c_001', undefined, {}],
    ['GET', '/contacts/c_001', undefined, { authorization: 'Bearer wrong' }],
    ['GET', '/health', undefined, {}],
    ['POST', '/contacts', '{"name": broken', { ...auth, 'content-type': 'application/json' }],
  ];
  for (const [method, path, body, headers] of exchanges) {
    const want = await direct.request(method, path, body, headers);
    const got = await proxy(method, path, body, { headers: headers ?? {} });
    const what = `${method} ${path} ${headers?.authorization ?? 'no token'}`;
    t.equal(got.status, want.status, `${what}: status ${want.status}`);
    t.same(sameHeaders(got.headers), sameHeaders(want.headers), `${what}: headers`);
    t.equal(got.text, want.text, `${what}: body`);
  }
  const journal = await server.journal();
  t.equal(journal.length, exchanges.length, 'every exchange journaled');
  t.same(
    journal.map((entry) => entry.tool),
    [
      'list_contacts',
      'list_contacts',
      'get_contact',
      'create_contact',
      'update_contact',
      'delete_contact',
      'get_contact',
      'create_contact',
      'close_deal',
      'close_deal',
      'list_deals',
      'get_contact',
      'get_contact',
      'health',
      'create_contact',
    ],
    'each call named by its operationId',
  );
  t.ok(
    journal.every((entry) => entry.domain === 'crm' && entry.hazards.length === 0),
    'the proxy is the domain; no hazards',
  );
  t.match(journal[4], { args: { id: 'c_003', phone: '+1-555-0999' }, status: 200, proxy: { method: 'PATCH', path: '/contacts/c_003', upstream_status: 200 } });
  t.match(journal[6], { status: 404, problem: { status: 404 } }, 'an upstream problem is the entry problem');
  t.notOk(JSON.stringify(journal).includes(TOKEN), 'the authorization header is never journaled');
});

t.test('secrets in arguments and queries are redacted in the journal, not in what the upstream receives', async (t) => {
  const seen: { url: string; body: string }[] = [];
  const upstream = await listen(t, (request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      seen.push({ url: request.url ?? '', body });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  const server = await startServer(t, { proxies: [HttpProxy.build('auth', parseUpstream({ upstream: upstream }, 'test') as never, undefined)] });
  const reply = await server.request('POST', '/proxy/auth/login?api_key=k-123&page=2', { user: 'ada', password: 'hunter2', nested: { client_secret: 's' } });
  t.equal(reply.status, 200);
  t.same(seen[0], { url: '/login?api_key=k-123&page=2', body: '{"user":"ada","password":"hunter2","nested":{"client_secret":"s"}}' }, 'forwarded as sent');
  const [entry] = await server.journal();
  t.same(entry.args, { api_key: '[redacted]', page: '2', user: 'ada', password: '[redacted]', nested: { client_secret: '[redacted]' } });
  t.equal(entry.proxy.path, '/login?api_key=%5Bredacted%5D&page=2');
  t.equal(entry.tool, 'post_login', 'without a document: the method and the path pattern');
});

t.test('only declared upstreams, never another origin, no redirects followed', async (t) => {
  const elsewhere: string[] = [];
  const other = await listen(t, (request, response) => {
    elsewhere.push(request.url ?? '');
    response.end('other');
  });
  const upstream = await listen(t, (request, response) => {
    if (request.url === '/moved') return response.writeHead(302, { location: `${other}/stolen` }).end();
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: request.url }));
  });
  const server = await startServer(t, { proxies: [HttpProxy.build('api', parseUpstream({ upstream }, 'test') as never, undefined)] });
  const unknown = await server.request('GET', '/proxy/elsewhere/anything');
  t.equal(unknown.status, 404);
  t.match(unknown.body, { code: 'unknown_proxy', detail: /Declared: api/ });
  for (const name of ['__proto__', 'constructor', 'toString']) t.equal((await server.request('GET', `/proxy/${name}/x`)).status, 404, name);
  const moved = await server.request('GET', '/proxy/api/moved');
  t.equal(moved.status, 302, 'a redirect goes back to the client');
  t.equal(moved.headers['location'], `${other}/stolen`);
  for (const path of ['//127.0.0.2/x', '/@127.0.0.2/x', '/..%2f..%2fx', '/%2e%2e/%2e%2e/admin']) {
    const reply = await server.request('GET', `/proxy/api${path}`);
    t.ok(reply.status === 200 || reply.status === 400 || reply.status === 404, `${path}: answered ${reply.status}`);
    if (reply.status === 200) t.type(reply.body.url, 'string', `${path}: reached the declared upstream only`);
  }
  t.same(elsewhere, [], 'nothing reached another host');
});

t.test('size limits, timeouts and an unreachable upstream are clean problems, journaled', async (t) => {
  const upstream = await listen(t, (request, response) => {
    if (request.url === '/slow') return void setTimeout(() => response.end('{}'), 1500);
    if (request.url === '/huge') return response.writeHead(200, { 'content-type': 'application/json' }).end(`"${'x'.repeat(4096)}"`);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  const config = parseUpstream({ upstream, timeout_ms: 300, max_body_bytes: 2048 }, 'test');
  const closed = parseUpstream({ upstream: 'http://127.0.0.1:9' }, 'test');
  const server = await startServer(t, {
    proxies: [HttpProxy.build('api', config as never, undefined), HttpProxy.build('down', closed as never, undefined)],
  });
  const slow = await server.request('GET', '/proxy/api/slow');
  t.equal(slow.status, 504);
  t.match(slow.body, { code: 'upstream_timeout', detail: /within 300 ms/ });
  t.match(slow.headers['content-type'], /problem\+json/);
  const huge = await server.request('GET', '/proxy/api/huge');
  t.equal(huge.status, 502);
  t.match(huge.body, { code: 'upstream_answer_too_large' });
  const big = await server.request('POST', '/proxy/api/upload', { data: 'y'.repeat(4096) });
  t.equal(big.status, 413);
  t.match(big.body, { code: 'request_too_large' });
  const down = await server.request('GET', '/proxy/down/x');
  t.equal(down.status, 502);
  t.match(down.body, { code: 'upstream_unreachable' });
  const journal = await server.journal();
  t.same(
    journal.map((entry) => [entry.tool, entry.status, entry.problem?.code]),
    [
      ['get_slow', 504, 'upstream_timeout'],
      ['get_huge', 502, 'upstream_answer_too_large'],
      ['get_x', 502, 'upstream_unreachable'],
    ],
    'the proxy’s own failures are journaled; a refused request body is not a call',
  );
});

t.test('with API_TOKEN, wildtools’ token travels in Proxy-Authorization and Authorization reaches the upstream', async (t) => {
  const seen: (string | undefined)[][] = [];
  const upstream = await listen(t, (request, response) => {
    seen.push([request.headers.authorization, request.headers['proxy-authorization']]);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  const apiToken = 'wildtools-api-token-123';
  const server = await startServer(t, { access: { apiToken }, proxies: [HttpProxy.build('api', parseUpstream({ upstream }, 'test') as never, undefined)] });
  const refused = await server.request('GET', '/proxy/api/x', undefined, { authorization: `Bearer ${apiToken}` });
  t.equal(refused.status, 401);
  t.match(refused.body.detail, /Proxy-Authorization/);
  const ok = await server.request('GET', '/proxy/api/x', undefined, { authorization: 'Bearer upstream-own', 'proxy-authorization': `Bearer ${apiToken}` });
  t.equal(ok.status, 200);
  t.same(seen, [['Bearer upstream-own', undefined]], 'the upstream sees its own credentials only');
});

t.test('upstreams declared at runtime: PUT and DELETE /admin/proxies/{name}, GET /proxies', async (t) => {
  const crm = { origin: await startCrmWithDocument(t) };
  const openapi = `${crm.origin}/openapi.json`;
  const server = await startServer(t);
  const bad = await server.request('PUT', '/admin/proxies/crm', { upstream: 'ftp://x' });
  t.equal(bad.status, 400);
  t.match(bad.body.detail, /upstream: an http:\/\/ or https:\/\/ URL/);
  t.equal((await server.request('PUT', '/admin/proxies/retail', { upstream: crm.origin })).status, 400, 'a built-in domain’s name');
  t.match((await server.request('PUT', '/admin/proxies/Bad_Name', { upstream: crm.origin })).body, { field: 'name' });
  const missing = await server.request('PUT', '/admin/proxies/crm', { upstream: crm.origin, openapi: `${crm.origin}/no-such.json` });
  t.match(missing.body.detail, /openapi: cannot read .*no-such\.json \(HTTP 404\)/);
  const badRule = await server.request('PUT', '/admin/proxies/crm', {
    upstream: crm.origin,
    openapi,
    rules: [{ kind: 'conflict', operation: 'list_deals', field: 'amount', authority: 'get_deal' }],
  });
  t.match(badRule.body.detail, /rules\.0: unknown operation 'get_deal' \(known: .*list_deals/);

  const created = await server.request('PUT', '/admin/proxies/crm', { upstream: crm.origin, openapi });
  t.equal(created.status, 200);
  t.match(created.body, { name: 'crm', kind: 'http', upstream: crm.origin, created: true });
  t.equal(created.body.operations.length, 8);
  t.match((await server.request('PUT', '/admin/proxies/crm', { upstream: crm.origin, openapi })).body, { created: false }, 'replaced');
  t.same(
    (await server.request('GET', '/proxies')).body.map((p: { name: string }) => p.name),
    ['crm'],
  );
  const session = await server.newSession({ hazards: { tools: { crm__get_contact: { outage: 'on' } } } });
  t.equal((await server.request('GET', `/s/${session}/proxy/crm/contacts/c_001`)).status, 503, 'its operations take hazard settings at once');
  t.equal((await server.request('GET', '/proxy/crm/contacts/c_001')).status, 200, 'in that session only');
  const matrix = await server.request('GET', `/hazards?session=${session}&active=1`);
  t.match(matrix.body.matrix, [{ domain: 'crm', tool: 'get_contact', kind: 'outage', probability: 1 }]);
  t.equal((await server.request('DELETE', '/admin/proxies/crm')).status, 204);
  t.equal((await server.request('GET', '/proxy/crm/contacts/c_001')).status, 404, 'gone');
  t.equal((await server.request('DELETE', '/admin/proxies/crm')).status, 404);
});

t.test('hazard flags name proxied operations like tools', async (t) => {
  const { proxy, server } = await startProxied(t, { hazardEnv: { HAZARD__OUTAGE__CRM__GET_CONTACT: 'on' } });
  t.equal((await proxy('GET', '/contacts/c_001')).status, 503);
  t.equal((await proxy('GET', '/contacts?limit=1')).status, 200);
  t.match((await server.journal())[0].hazards, [{ kind: 'outage', tool: 'get_contact' }]);
  await t.rejects(
    startProxied(t, { hazardEnv: { HAZARD__OUTAGE__CRM__GET_NOTHING: 'on' } }),
    /HAZARD__OUTAGE__CRM__GET_NOTHING: unknown tool 'CRM__GET_NOTHING'/,
  );
});

t.test('a reset session forgets what its reads cached', async (t) => {
  const { proxy, server } = await startProxied(t);
  const session = await server.newSession({ hazards: { tools: { crm__update_contact: { eventual_consistency: 'on' } } } });
  const before = (await proxy('GET', '/contacts/c_003', undefined, { session })).body;
  await proxy('PATCH', '/contacts/c_003', { phone: '+1-555-0001' }, { session });
  t.same((await proxy('GET', '/contacts/c_003', undefined, { session })).body, before, 'a lagging read, from the cache');
  t.equal((await server.request('POST', `/sessions/${session}/reset`)).status, 200);
  await proxy('PATCH', '/contacts/c_003', { phone: '+1-555-0002' }, { session });
  t.match((await proxy('GET', '/contacts/c_003', undefined, { session })).body, { phone: '+1-555-0002' }, 'nothing cached before the reset lags');
  const journal = await server.journal(session);
  t.same(
    journal.map((entry) => entry.hazards.map((event: { kind: string }) => event.kind)),
    [[], []],
    'after the reset (the journal starts again): a write of a record not read since lags nothing',
  );
});

t.test('an instruction planted in a record asks for a write on that record’s own collection, in a text field', async (t) => {
  const { proxy, server } = await startProxied(t);
  const session = await server.newSession({ hazards: { tools: { crm__list_deals: { injection: 'on' } } } });
  const deals = (await proxy('GET', '/deals', undefined, { session })).body as { id: string; title: string; contact_id: string }[];
  t.match(deals[0]!.title, /call POST \/deals\/d_001\/close \(close_deal\)/, 'the deal’s own write, in its title');
  t.equal(deals[0]!.contact_id, 'c_001', 'an identifier is never the carrier');
  const [entry] = await server.journal(session);
  t.match(entry.hazards, [{ kind: 'injection', field: 'title', trap: { tool: 'close_deal', args: { id: 'd_001' } } }]);
});

t.test('spec drift of a JSON body member: refused under its old name, sent under it when the new one is used', async (t) => {
  const { proxy, server, crm } = await startProxied(t);
  const session = await server.newSession({ hazards: { tools: { crm__create_contact: { spec_drift: 'on' } } } });
  const first = await proxy('POST', '/contacts', { name: 'Ann Lee', email: 'ann@lee.example', company: 'Lee' }, { session });
  t.equal(first.status, 201, 'before the drift point');
  const old = await proxy('POST', '/contacts', { name: 'Bo Lee', email: 'bo@lee.example', company: 'Lee' }, { session });
  t.equal(old.status, 400);
  t.match(old.body, { errors: [{ field: 'name', message: "unknown field 'name'" }] });
  const document = (await server.request('GET', `/s/${session}/proxy/crm/openapi.json`)).body;
  const schema = document.paths['/contacts'].post.requestBody.content['application/json'].schema;
  t.ok('full_name' in schema.properties && !('name' in schema.properties), 'the served document shows the new member');
  t.ok(schema.required.includes('full_name'));
  const renamed = await proxy('POST', '/contacts', { full_name: 'Bo Lee', email: 'bo@lee.example', company: 'Lee' }, { session });
  t.equal(renamed.status, 201);
  t.match(renamed.body, { name: 'Bo Lee' }, 'the upstream received its own name');
  const listed = (await crm.request('GET', '/contacts?q=lee.example&limit=10')).body as { items: unknown[] };
  t.equal(listed.items.length, 2, 'the refused call never reached the upstream');
});

t.test('an OpenAPI document from a URL, in YAML', async (t) => {
  const yaml = (await import('yaml')).stringify(CRM_DOCUMENT);
  const upstream = await listen(t, (request, response) => {
    if (request.url === '/openapi.yaml') return response.writeHead(200, { 'content-type': 'application/yaml' }).end(yaml);
    if (request.url === '/readme.json') return response.writeHead(200, { 'content-type': 'application/json' }).end('{"title": "no paths"}');
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"id": "c_002"}');
  });
  const server = await startServer(t);
  const created = await server.request('PUT', '/admin/proxies/crm', { upstream, openapi: `${upstream}/openapi.yaml` });
  t.equal(created.body.operations.length, 8);
  t.equal((await server.request('GET', '/proxy/crm/contacts/c_002')).status, 200);
  const notOpenApi = await server.request('PUT', '/admin/proxies/crm3', { upstream, openapi: `${upstream}/readme.json` });
  t.match(notOpenApi.body.detail, /readme\.json is not an OpenAPI document \(no paths\)/);
});
