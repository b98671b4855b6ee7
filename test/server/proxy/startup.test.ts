import { join } from 'node:path';
import t from 'tap';
import { request } from 'undici';
import { runServerToExit, spawnServer } from '../../helpers/process.js';
import { startCrm } from '../../helpers/proxy.js';

const DOCUMENT = join(process.cwd(), 'examples/upstream-crm/openapi.json');

t.test('PROXY_CONFIG (YAML) declares upstreams at startup; flags name their operations', async (t) => {
  const crm = await startCrm(t);
  const dir = t.testdir({
    'proxy.yaml':
      `# the CRM\ncrm:\n  upstream: ${crm.origin}\n  openapi: ${DOCUMENT}\n  rules:\n    - kind: feature_limit\n      operation: ` +
      `list_contacts\n      param: limit\n      max: 20\n      message: At most 20 a page.\n`,
  });
  const server = await spawnServer({ PROXY_CONFIG: join(dir, 'proxy.yaml'), HAZARD__FEATURE_LIMIT__CRM__LIST_CONTACTS: 'on' });
  t.teardown(() => server.child.kill('SIGTERM'));
  const limited = await request(`${server.origin}/proxy/crm/contacts?limit=50`);
  t.equal(limited.statusCode, 422);
  t.match(await limited.body.json(), { code: 'feature_limited', detail: 'At most 20 a page.' });
  const page = await request(`${server.origin}/proxy/crm/contacts?limit=20`);
  t.equal(page.statusCode, 200);
  t.equal(((await page.body.json()) as { items: unknown[] }).items.length, 20);
  const proxies = (await (await request(`${server.origin}/proxies`)).body.json()) as { name: string; operations: unknown[] }[];
  t.match(proxies, [{ name: 'crm', kind: 'http', upstream: crm.origin }]);
});

t.test('a bad PROXY_CONFIG stops startup with one line naming the upstream and the field', async (t) => {
  const dir = t.testdir({
    'bad.json': JSON.stringify({ crm: { upstream: 'ftp://x' } }),
    'rule.yaml':
      `crm:\n  upstream: http://127.0.0.1:9\n  openapi: ${DOCUMENT}\n  rules: [{kind: conflict, operation: list_deals, field: amount, authority: ` +
      `nothing}]\n`,
    'retail.json': JSON.stringify({ retail: { upstream: 'http://127.0.0.1:9' } }),
    'broken.yaml': 'crm: [',
  });
  const cases: [string, RegExp][] = [
    ['bad.json', /wildtools: PROXY_CONFIG=.*bad\.json: crm\.upstream: an http:\/\/ or https:\/\/ URL/],
    ['rule.yaml', /crm\.rules\.0: unknown operation 'nothing'/],
    ['broken.yaml', /broken\.yaml: not YAML/],
    ['missing.json', /missing\.json: cannot read it \(ENOENT\)/],
  ];
  for (const [file, message] of cases) {
    const run = await runServerToExit({ PROXY_CONFIG: join(dir, file) });
    t.equal(run.code, 1, file);
    t.match(run.output, message, file);
    t.equal(run.output.trim().split('\n').length, 1, `${file}: one line`);
  }
  const flag = await runServerToExit({ PROXY_CONFIG: join(dir, 'bad.json'), HAZARD__OUTAGE__CRM__GET_CONTACT: 'on' });
  t.equal(flag.code, 1, 'the config is read before the flags that name its operations');
  const clash = await runServerToExit({ PROXY_CONFIG: join(dir, 'retail.json') });
  t.equal(clash.code, 1);
  t.match(clash.output, /^wildtools: retail: the name of a built-in domain\n$/);
});

t.test('PROXY_CONFIG declares an MCP server started over stdio, stopped with the server', async (t) => {
  const tsx = join(process.cwd(), 'node_modules/.bin/tsx');
  const dir = t.testdir({
    'proxy.json': JSON.stringify({ helpdesk: { mcp: { command: tsx, args: [join(process.cwd(), 'examples/upstream-mcp/stdio.ts')] } } }),
  });
  const server = await spawnServer({ PROXY_CONFIG: join(dir, 'proxy.json') });
  const proxies = (await (await request(`${server.origin}/proxies`)).body.json()) as { name: string; kind: string; operations: { name: string }[] }[];
  t.match(proxies, [{ name: 'helpdesk', kind: 'mcp', upstream: `stdio: ${tsx}` }]);
  t.same(proxies[0]!.operations.map((operation) => operation.name).sort(), ['create_ticket', 'get_ticket', 'list_tickets', 'lookup_contact']);
  server.child.kill('SIGTERM');
  t.equal(await server.exited, 0, 'the server and its child stop on SIGTERM');
});
