import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { loadProxyConfig, parseProxyConfig, ProxyConfigError } from '../../../server/proxy/config.js';

t.test('a configuration of named upstreams, with defaults', async (t) => {
  const config = parseProxyConfig({ crm: { upstream: 'http://127.0.0.1:9090', openapi: 'examples/upstream-crm/openapi.json' } }, 'test');
  t.same(config, {
    crm: { upstream: 'http://127.0.0.1:9090', openapi: 'examples/upstream-crm/openapi.json', timeout_ms: 10_000, max_body_bytes: 1_048_576, rules: [] },
  });
});

t.test('each mistake is one error naming the upstream and the field', async (t) => {
  const cases: [unknown, RegExp][] = [
    [{ crm: { upstream: 'ftp://host' } }, /crm\.upstream: an http:\/\/ or https:\/\/ URL/],
    [{ crm: { upstream: 'http://host/?q=1' } }, /crm\.upstream: a base URL without query/],
    [{ CRM: { upstream: 'http://host' } }, /CRM: not a proxy name: lower-case letters/],
    [{ crm: { upstream: 'http://host', retries: 3 } }, /crm: Unrecognized key/],
    [{ crm: { upstream: 'http://host', timeout_ms: 5 } }, /crm\.timeout_ms/],
    [[], /the file/],
  ];
  for (const [data, message] of cases) t.throws(() => parseProxyConfig(data, 'PROXY_CONFIG=x'), { name: 'Error', message }, JSON.stringify(data));
  let thrown: unknown;
  try {
    parseProxyConfig({ crm: {} }, 'x');
  } catch (error) {
    thrown = error;
  }
  t.ok(thrown instanceof ProxyConfigError, 'a ProxyConfigError, for launch to print in one line');
});

t.test('a file: read, parsed without prototype keys, each failure named', async (t) => {
  const dir = t.testdir();
  const good = join(dir, 'good.json');
  writeFileSync(good, JSON.stringify({ crm: { upstream: 'http://127.0.0.1:9090' } }));
  t.equal((loadProxyConfig(good).crm as { upstream: string }).upstream, 'http://127.0.0.1:9090');
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, '{"crm": ');
  t.throws(() => loadProxyConfig(bad), /bad\.json: not JSON/);
  const proto = join(dir, 'proto.json');
  writeFileSync(proto, '{"__proto__": {"upstream": "http://evil"}}');
  t.throws(() => loadProxyConfig(proto), /not JSON \(a forbidden "__proto__"/);
  t.throws(() => loadProxyConfig(join(dir, 'missing.json')), /cannot read it \(ENOENT\)/);
});

t.test('the example configurations are valid and their rules name real operations', async (t) => {
  const { buildUpstreams } = await import('../../../server/proxy/proxies.js');
  for (const file of ['examples/upstream-crm/proxy.json', 'examples/upstream-crm/proxy.yaml']) {
    const [crm] = await buildUpstreams(loadProxyConfig(file), file);
    t.equal(crm?.name, 'crm', file);
    t.equal(crm?.contracts().length, 8, `${file}: the document's 8 operations`);
  }
  const yaml = loadProxyConfig('examples/upstream-crm/proxy.yaml').crm as { rules: { kind: string }[] };
  t.same(
    yaml.rules.map((rule) => rule.kind),
    ['adhoc_rule', 'feature_limit', 'conflict'],
  );
});
