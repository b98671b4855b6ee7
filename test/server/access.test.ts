import t from 'tap';
import { request } from 'undici';
import { isLoopback } from '../../server/core/hosts.js';
import { spawnServer } from '../helpers/process.js';
import { raw } from '../helpers/raw-http.js';
import { startServer, type TestServer } from '../helpers/server.js';

const ADMIN = 'admin-token-0123456789abcdef';
const API = 'api-token-0123456789abcdefgh';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const call = (server: TestServer, headers: Record<string, string> = {}) => server.request('POST', '/retail/tools/calculate', { expression: '1 + 1' }, headers);
const adminRoutes = [
  ['PUT', '/admin/hazards', { kinds: { outage: 'off' } }],
  ['DELETE', '/admin/hazards', undefined],
  ['POST', '/sessions/default/reset', undefined],
  ['DELETE', '/sessions/default', undefined],
] as const;

t.test('loopback addresses', async (t) => {
  for (const host of ['127.0.0.1', 'localhost', '::1', '127.0.0.2', 'localhost:8080', '[::1]:8080', '127.0.0.1:80', 'app.localhost:3000', 'LOCALHOST'])
    t.ok(isLoopback(host), host);
  for (const host of ['0.0.0.0', '10.0.0.5', 'example.com', '127.0.0.1.example.com', '::', 'localhost.evil', 'evil-localhost', 'localhost:80x'])
    t.notOk(isLoopback(host), host);
});

t.test('loopback without tokens: everything is open to this machine; admin routes refuse web pages of other sites', async (t) => {
  const server = await startServer(t);
  t.equal((await call(server)).status, 200, 'tool calls need no token');
  for (const [method, path, body] of adminRoutes) {
    t.equal((await server.request(method, path, body)).status < 300, true, `${method} ${path} from this machine`);
    const fromPage = await server.request(method, path, body, { origin: 'https://evil.example' });
    t.match(fromPage, { status: 403, body: { code: 'cross_site_refused' } }, `${method} ${path} from another site's page`);
    const rebound = await server.request(method, path, body, { host: 'evil.example:8080' });
    t.match(rebound, { status: 403, body: { code: 'host_not_allowed' } }, `${method} ${path} under a name rebound to this machine`);
  }
  t.equal(
    (await server.request('POST', '/sessions/default/reset', undefined, { origin: `http://127.0.0.1:8080` })).status,
    200,
    'a page served from this machine',
  );
});

t.test('ADMIN_TOKEN guards the admin routes, and only them', async (t) => {
  const server = await startServer(t, { access: { adminToken: ADMIN } });
  for (const [method, path, body] of adminRoutes) {
    const none = await server.request(method, path, body);
    t.match(none, { status: 401, body: { code: 'unauthorized', detail: /Bearer <ADMIN_TOKEN>/ } }, `${method} ${path} without a token`);
    t.equal(none.headers['www-authenticate'], 'Bearer realm="wildtools"');
    t.match(
      await server.request(method, path, body, bearer('wrong-token-0123456789')),
      { status: 401, body: { code: 'invalid_token' } },
      `${method} ${path} with a wrong token`,
    );
    t.ok((await server.request(method, path, body, bearer(ADMIN))).status < 300, `${method} ${path} with the token`);
  }
  t.equal((await server.request('POST', '/s/x/admin/hazards', {})).status, 404, 'no way around it through a session prefix');
  t.equal((await server.request('DELETE', '/s/x/admin/hazards')).status, 401, 'the prefix reaches the same guarded route');
  t.equal((await call(server)).status, 200, 'tool calls stay open');
  t.equal((await server.request('POST', '/sessions', { id: 'mine' })).status, 201, 'creating a session is like calling a tool');
  t.equal((await server.request('GET', '/sessions/mine/journal')).status, 200, 'and reading one');
  t.match(await server.request('GET', '/hazards'), { status: 200 }, 'the hazard matrix is readable');
});

t.test('API_TOKEN guards every route but /health and /docs; the admin token works there too', async (t) => {
  const server = await startServer(t, { access: { adminToken: ADMIN, apiToken: API } });
  t.match(await call(server), { status: 401, body: { code: 'unauthorized' } }, 'a tool call without a token');
  t.match(await call(server, bearer('nope-nope-nope-nope')), { status: 401, body: { code: 'invalid_token' } });
  t.equal((await call(server, bearer(API))).status, 200, 'with API_TOKEN');
  t.equal((await call(server, bearer(ADMIN))).status, 200, 'with ADMIN_TOKEN');
  for (const path of [
    '/retail/tools',
    '/tools',
    '/sessions',
    '/sessions/default/journal',
    '/hazards',
    '/domains',
    '/openapi.json',
    '/retail/openapi.json',
    '/retail/policy',
  ]) {
    t.equal((await server.request('GET', path)).status, 401, `GET ${path} without a token`);
    t.equal((await server.request('GET', path, undefined, bearer(API))).status, 200, `GET ${path} with API_TOKEN`);
  }
  t.equal((await server.request('GET', '/health')).status, 200, '/health is public');
  t.equal((await server.request('GET', '/docs/')).status, 200, '/docs is public');
  t.match(
    await server.request('DELETE', '/admin/hazards', undefined, bearer(API)),
    { status: 401, body: { code: 'invalid_token' } },
    'API_TOKEN is not an admin token',
  );
});

t.test('a server bound off loopback makes an admin token, prints it once, and requires it', async (t) => {
  const open = await spawnServer({ HOST: '0.0.0.0' });
  t.teardown(() => open.child.kill('SIGKILL'));
  const printed = /Authorization: Bearer (\S+)/.exec(open.output());
  t.ok(printed, 'the token is printed');
  const token = printed![1]!;
  t.match(token, /^[A-Za-z0-9_-]{32}$/, 'a random url-safe token');
  t.equal(open.output().split(token).length - 1, 1, 'printed once');
  const admin = (headers: Record<string, string>) => request(`${open.origin}/admin/hazards`, { method: 'DELETE', headers });
  t.equal((await admin({})).statusCode, 401, 'admin routes need it');
  t.equal((await admin(bearer(token))).statusCode, 200, 'and accept it');
  const tool = await request(`${open.origin}/retail/tools/calculate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"expression": "2 * 3"}',
  });
  t.equal(await tool.body.json(), '6.0', 'tool calls need none');

  const chosen = await spawnServer({ HOST: '0.0.0.0', ADMIN_TOKEN: ADMIN });
  t.teardown(() => chosen.child.kill('SIGKILL'));
  t.notMatch(chosen.output(), /Authorization: Bearer/, 'a chosen token is not printed');
  t.equal((await request(`${chosen.origin}/admin/hazards`, { method: 'DELETE', headers: bearer(ADMIN) })).statusCode, 200);

  const local = await spawnServer({ HOST: '127.0.0.1' });
  t.teardown(() => local.child.kill('SIGKILL'));
  t.notMatch(local.output(), /Authorization: Bearer/, 'on loopback, no token is made');
  t.equal((await request(`${local.origin}/admin/hazards`, { method: 'DELETE' })).statusCode, 200);
});

// DNS rebinding: a page of evil.example rebinds its name to 127.0.0.1 and calls the server under it.
const REBOUND = { host: 'evil.example:8080' };
/** A tool call, a session created, a journal read, a WebSocket opened: what a rebinding page would do. */
const apiRoutes = (server: TestServer, headers: Record<string, string>) =>
  [
    ['a tool call', () => call(server, headers)],
    ['a session created', () => server.request('POST', '/sessions', {}, headers)],
    ['a journal read', () => server.request('GET', '/sessions/default/journal', undefined, headers)],
    ['the health check', () => server.request('GET', '/health', undefined, headers)],
  ] as const;

const upgrade = (server: TestServer, host: string) =>
  raw(
    server.origin,
    `GET /openenv/ws HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
  );

t.test('without API_TOKEN, a name that is not loopback nor allowed is refused on every route', async (t) => {
  const server = await startServer(t);
  for (const [what, send] of apiRoutes(server, REBOUND)) {
    const reply = await send();
    t.match(reply, { status: 403, body: { code: 'host_not_allowed', host: 'evil.example:8080' } }, what);
    t.match(reply.body.detail, /not for "evil\.example:8080".*add it to ALLOWED_HOSTS, or set API_TOKEN/, `${what}: the detail says how to allow it`);
    t.match(reply.headers['content-type'], /^application\/problem\+json/);
  }
  t.equal(
    (await server.request('GET', '/sessions')).body.some((s: { id: string }) => s.id !== 'default'),
    false,
    'no session was created',
  );
  t.match(await upgrade(server, 'evil.example'), { status: 403, body: { code: 'host_not_allowed' } }, 'nor a WebSocket opened');
  const absolute = await raw(server.origin, `GET http://evil.example/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
  t.match(absolute, { status: 403, body: { code: 'host_not_allowed' } }, "an absolute-form target's host counts, not Host");

  for (const host of ['localhost', 'localhost:8080', '127.0.0.1:80', '127.1.2.3', '[::1]:8080', 'app.localhost:3000']) {
    for (const [what, send] of apiRoutes(server, { host })) t.ok((await send()).status < 300, `${what} as ${host}`);
  }
  t.equal((await server.request('GET', '/health', undefined, { host: '10.0.0.5:8080' })).status, 403, 'an address is refused on loopback');
});

t.test('ALLOWED_HOSTS: its names and the subdomains of its *. entries, with any port', async (t) => {
  const server = await startServer(t, { access: { hosts: { allowed: ['wildtools.test', '*.corp.example'] } } });
  for (const host of ['wildtools.test', 'WildTools.Test:8080', 'a.corp.example', 'b.a.corp.example:443', 'localhost:80']) {
    for (const [what, send] of apiRoutes(server, { host })) t.ok((await send()).status < 300, `${what} as ${host}`);
  }
  for (const host of ['corp.example', 'evilcorp.example', 'wildtools.test.evil.example', 'xwildtools.test'])
    t.match(await call(server, { host }), { status: 403, body: { code: 'host_not_allowed' } }, host);
  t.equal((await server.request('DELETE', '/admin/hazards', undefined, { host: 'wildtools.test' })).status, 200, 'admin routes answer allowed names');
});

t.test('a server listening beyond loopback answers under any of its addresses, not under names', async (t) => {
  const server = await startServer(t, { access: { adminToken: ADMIN, hosts: { anyAddress: true } } });
  for (const host of ['10.0.0.5:8080', '192.168.1.20', '[fd00::5]:8080']) t.equal((await call(server, { host })).status, 200, host);
  t.equal((await call(server, REBOUND)).status, 403, 'a name can be rebound: refused');
});

t.test('with API_TOKEN, the token is the guard: any name is served, a malformed Host is not', async (t) => {
  const server = await startServer(t, { access: { apiToken: API } });
  for (const [what, send] of apiRoutes(server, { ...REBOUND, ...bearer(API) })) t.ok((await send()).status < 300, what);
  t.equal((await call(server, REBOUND)).status, 401, 'without the token, the token is asked for');
  for (const host of ['bad host', 'a[b', '[::1', 'evil.example:80:80']) {
    const reply = await raw(
      server.origin,
      `POST /retail/tools/calculate HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${API}\r\nContent-Type: application/json\r\nContent-Length: ` +
        `2\r\nConnection: close\r\n\r\n{}`,
    );
    t.match(reply, { status: 400, body: { code: 'invalid_host' } }, JSON.stringify(host));
  }
});
