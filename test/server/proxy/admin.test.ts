import type { AddressInfo } from 'node:net';
import t from 'tap';
import { domains } from '../../../domains/index.js';
import { buildApp } from '../../../server/app.js';
import { ADMIN_EXEC_VARIABLE } from '../../../server/proxy/admin-policy.js';
import { loadConfig } from '../../../server/core/config.js';
import type { McpUpstream } from '../../../server/proxy/config.js';
import type { McpConnector } from '../../../server/proxy/proxies.js';
import { client } from '../../helpers/proxy.js';
import { fixtureBases } from '../../helpers/server.js';
import { listen, startCrmWithDocument } from './upstreams.js';

// PUT /admin/proxies/{name} may not start commands, read local files or fetch documents from hosts the
// declaration does not reach, unless the server runs with ADMIN_PROXY_EXEC=1.

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** wildtools listening on loopback, built with ADMIN_PROXY_EXEC as given; MCP upstreams "connect" by being recorded. */
async function adminServer(t: Teardown, exec: string | undefined) {
  const started: McpUpstream['mcp'][] = [];
  const connectMcp: McpConnector = async (name, config) => {
    started.push(config.mcp);
    return { name, kind: 'mcp', config, domain: () => ({ name, tools: [] }), contracts: () => [] };
  };
  const app = await buildApp({
    domains,
    bases: await fixtureBases(),
    sessions: { ttlMs: 3_600_000, maxSessions: 10, defaultSeed: '0' },
    connectMcp,
    proxyExec: exec === undefined ? false : loadConfig({ [ADMIN_EXEC_VARIABLE]: exec }, domains).adminProxyExec,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  const request = client(t, `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
  return { started, put: (name: string, body: unknown) => request('PUT', `/admin/proxies/${name}`, body) };
}

const STDIO = { command: process.execPath, args: ['--version'] };

t.test('ADMIN_PROXY_EXEC: 1 or true turns it on, 0 or false or nothing leaves it off, anything else is refused', async (t) => {
  for (const [word, on] of [
    ['1', true],
    ['true', true],
    ['0', false],
    ['false', false],
    [undefined, false],
  ] as const)
    t.equal(loadConfig(word === undefined ? {} : { [ADMIN_EXEC_VARIABLE]: word }, domains).adminProxyExec, on, String(word));
  t.throws(() => loadConfig({ [ADMIN_EXEC_VARIABLE]: 'yes' }, domains), { message: /ADMIN_PROXY_EXEC/ });
});

t.test('without ADMIN_PROXY_EXEC, an admin call may not start a command', async (t) => {
  const { put, started } = await adminServer(t, undefined);
  const refused = await put('tickets', { mcp: STDIO });
  t.equal(refused.status, 403);
  t.match(refused.headers['content-type'], /problem\+json/);
  t.match(refused.body, {
    code: 'proxy_not_allowed',
    field: 'mcp',
    detail: new RegExp(`mcp: an admin call may not start a command \\(${process.execPath.replaceAll('\\', '\\\\')}\\).*ADMIN_PROXY_EXEC=1`),
  });
  t.same(started, [], 'nothing was started');
  const off = await adminServer(t, '0');
  t.equal((await off.put('tickets', { mcp: STDIO })).status, 403, 'ADMIN_PROXY_EXEC=0 leaves it off');
  t.same(off.started, []);

  const http = await put('helpdesk', { mcp: 'http://127.0.0.1:9/mcp' });
  t.equal(http.status, 200, 'an MCP server over HTTP may be declared');
  t.same(started, ['http://127.0.0.1:9/mcp']);
  t.equal((await put('bad', { mcp: { command: '' } })).status, 400, 'a malformed declaration is still a 400 naming the field');
});

t.test('without ADMIN_PROXY_EXEC, an admin call may not make the server read a local file', async (t) => {
  const crm = await startCrmWithDocument(t);
  const { put } = await adminServer(t, undefined);
  const details: string[] = [];
  for (const path of ['package.json', `${process.cwd()}/package.json`, 'examples/upstream-crm/openapi.json', 'no/such/file.json', 'file:package.json']) {
    const refused = await put('crm', { upstream: crm, openapi: path });
    t.equal(refused.status, 403, path);
    t.match(refused.body, { code: 'proxy_not_allowed', field: 'openapi', detail: /openapi: an admin call may not make the server read a local file/ }, path);
    details.push(refused.body.detail.replace(path, 'PATH'));
  }
  t.equal(new Set(details).size, 1, 'the same answer whether the file exists or not: nothing was read');
});

t.test('without ADMIN_PROXY_EXEC, documents are fetched from the declared upstream only', async (t) => {
  const crm = await startCrmWithDocument(t);
  const fetched: string[] = [];
  const elsewhere = await listen(t, (request, response) => {
    fetched.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"paths": {}}');
  });
  const { put } = await adminServer(t, undefined);
  const otherHost = elsewhere.replace('127.0.0.1', 'localhost');
  for (const url of [`${elsewhere}/openapi.json`, `${otherHost}/openapi.json`, 'http://wildtools.invalid/openapi.json']) {
    const refused = await put('crm', { upstream: crm, openapi: url });
    const host = new URL(url).host;
    t.equal(refused.status, 403, url);
    t.match(
      refused.body,
      {
        code: 'proxy_not_allowed',
        field: 'openapi',
        host,
        detail: new RegExp(`only from the upstream it declares \\(${new URL(crm).host}\\), not from ${host}`),
      },
      url,
    );
  }
  t.same(fetched, [], 'no other host was asked');
  t.match((await put('crm', { upstream: crm, openapi: 'http://exa mple.com/x' })).body, { field: 'openapi', host: '', detail: /not from an invalid URL/ });

  const created = await put('crm', { upstream: crm, openapi: `${crm}/openapi.json` });
  t.equal(created.status, 200, "the upstream's own host");
  t.equal(created.body.operations.length, 8);
});

t.test('with ADMIN_PROXY_EXEC=1, admin calls may declare what PROXY_CONFIG may', async (t) => {
  const crm = await startCrmWithDocument(t);
  const documents = await listen(t, (_request, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"paths": {"/x": {"get": {}}}}'),
  );
  const { put, started } = await adminServer(t, '1');
  const stdio = await put('tickets', { mcp: STDIO });
  t.equal(stdio.status, 200);
  t.same(started, [{ ...STDIO }], 'the command is handed to the MCP connector');
  t.equal((await put('crm', { upstream: crm, openapi: 'examples/upstream-crm/openapi.json' })).body.operations.length, 8, 'a local file');
  t.same(
    (await put('other', { upstream: crm, openapi: `${documents}/openapi.json` })).body.operations.map((op: { name: string }) => op.name),
    ['get_x'],
    'a document from another host',
  );
});
