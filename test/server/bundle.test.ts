import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { domains } from '../../domains/index.js';
import { preparedData, preparedPath } from '../../server/core/data/prepared.js';
import { spawnListening } from '../helpers/process.js';
import { STARTED_FAST } from '../helpers/start-path.js';

// What `npm start` runs: the server bundled into dist/bundle/ by `npm run compile` (which `npm install`
// runs) and compiled from V8's code cache, finding its databases, policies, tasks and Swagger UI's assets
// from dist/, and loading the MCP SDK and the proxy's HTTP client on first use.

const root = fileURLToPath(new URL('../../', import.meta.url));
const env = { ...process.env, _TAPJS_PROCESSINFO_COVERAGE_: '0', NODE_OPTIONS: '', PORT: '0', LOG_LEVEL: 'info' };

t.test('the build prepared every embedded database from the file beside it', async (t) => {
  for (const domain of domains) {
    const path = `${root}dist/fixtures/${domain.name}.json`;
    const prepared = JSON.parse(readFileSync(preparedPath(path), 'utf8')) as unknown;
    t.ok(preparedData(domain, readFileSync(path), prepared), `${domain.name}: fresh`);
  }
});

t.test("the bundle's code cache, made by the build, is taken by V8 at start", async (t) => {
  const script = `const { requireWithCodeCache } = await import('./dist/lib/code-cache.js');
    console.log(requireWithCodeCache('./dist/bundle/server.cjs').cache);`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, env, encoding: 'utf8' });
  t.equal(output.trim(), 'taken');
});

t.test('the bundle serves every domain, its documents, Swagger UI, MCP and the proxy', async (t) => {
  const upstream = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"from":"upstream"}'));
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  t.teardown(() => upstream.close());
  const dir = mkdtempSync(join(tmpdir(), 'wildtools-bundle-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const config = join(dir, 'proxy.json');
  writeFileSync(
    config,
    JSON.stringify({
      api: { upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}` },
      tickets: { mcp: { command: process.execPath, args: ['--import', 'tsx', `${root}examples/upstream-mcp/stdio.ts`] } },
    }),
  );
  const server = await spawnListening(process.execPath, [`${root}dist/bundle/main.js`], { env: { ...env, PROXY_CONFIG: config }, cwd: root });
  // SIGKILL: this test is not about shutting down (the bin's is, below), and a SIGTERM here has now and then left the
  // server waiting on a connection of the proxy's, keeping the test's process alive.
  t.teardown(() => server.child.kill('SIGKILL'));
  t.match(server.output(), STARTED_FAST, 'it says it started from the bundle and its code cache, with every database prepared');
  const get = (path: string, init?: RequestInit) => fetch(`${server.origin}${path}`, init);
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    get(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  t.equal((await post('/retail/tools/get_order_details', { order_id: '#W5124601' })).status, 200);
  for (const domain of domains) {
    const listing = (await (await get(`/${domain.name}/tools`)).json()) as { tools: unknown[] };
    t.equal(listing.tools.length, domain.tools.length, `${domain.name}: its tools`);
    t.match(await (await get(`/${domain.name}/policy`)).text(), /\w/, `${domain.name}: its policy`);
  }
  t.equal(((await (await get('/tasks')).json()) as unknown[]).length > 100, true, 'the tasks');
  t.equal((await get('/openapi.json')).status, 200);
  t.equal((await get('/docs/')).status, 200, 'Swagger UI');
  t.equal((await get('/docs/static/swagger-ui-bundle.js')).status, 200, "Swagger UI's assets");
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
  };
  const mcp = await post('/retail/mcp', initialize, { accept: 'application/json, text/event-stream' });
  t.equal(mcp.status, 200, 'MCP, loaded on first use');
  t.match(await mcp.text(), /"serverInfo"/);
  const proxied = await get('/proxy/api/anything');
  t.equal(proxied.status, 200, "the proxy's HTTP client, loaded on first use");
  t.same(await proxied.json(), { from: 'upstream' });
  const tickets = await post('/proxy/tickets/mcp', initialize, { accept: 'application/json, text/event-stream' });
  t.equal(tickets.status, 200, 'an MCP upstream over stdio, through the MCP client');
  // Read to its end: an answer left unread holds its connection, and the server's shutdown waits for it.
  t.match(await tickets.text(), /"serverInfo"/);
});

t.test('the bin serves from the bundle too, its flags intact', async (t) => {
  const bin = `${root}dist/cli/main.js`;
  const server = await spawnListening(process.execPath, [bin, 'serve', '--port', '0', '--max-sessions', '3', '--hazard', 'outage:track_order=on'], {
    env: { ...env, MAX_SESSIONS: '1000' },
    cwd: root,
  });
  t.teardown(() => server.child.kill('SIGKILL'));
  t.match(server.output(), STARTED_FAST);
  const health = (await (await fetch(`${server.origin}/health`)).json()) as { sessions: { max: number } };
  t.equal(health.sessions.max, 3, '--max-sessions over MAX_SESSIONS');
  const track = await fetch(`${server.origin}/retail/tools/track_order`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ order_id: '#W5124601' }),
  });
  t.equal(track.status, 503, '--hazard outage:track_order=on');
  server.child.kill('SIGTERM');
  t.equal(await server.exited, 0, 'SIGTERM: exit 0');

  const run = (args: string[]) => spawnSync(process.execPath, [bin, ...args], { env, encoding: 'utf8' });
  const help = run(['serve', '--help']);
  t.equal(help.status, 0);
  t.match(help.stdout, /^Usage: wildtools serve \[flags\][\s\S]*--max-sessions VALUE/);
  const wrong = run(['serve', '--port', 'eighty']);
  t.equal(wrong.status, 2);
  t.match(wrong.stderr, /^wildtools serve: --port: Invalid PORT="eighty"/);
  t.match(run(['--help']).stdout, /^Usage: wildtools <command>/, 'other commands as before');
});
