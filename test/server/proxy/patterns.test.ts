import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { loadProxyConfig, parseProxyConfig, ProxyConfigError } from '../../../server/proxy/config.js';
import { catastrophicBacktracking } from '../../../server/proxy/patterns.js';
import { startServer } from '../../helpers/server.js';

// Rule patterns that can backtrack catastrophically are refused when the configuration is read, naming them.

const CATASTROPHIC = [
  '(a+)+',
  '(a*)*',
  '(a|aa)+',
  '^(a+)+$',
  '^([a-z0-9]+)*@x$',
  '(\\w+\\s?)+$',
  '(.*,)+x',
  '([^,]*,?)+$',
  '(a?a)+',
  '(a|)+',
  '(\\w|\\d)*',
  '(\\d+|\\d{2})+',
  '((ab)+)+',
  '(a+){10}',
  '(?:x+x+)+y',
  '(?=(a+)+$)a',
];

const SAFE = [
  '^\\d{3}$',
  '^c_\\d+$',
  '^[A-Z]{2}$',
  '^[a-z]+(-[a-z]+)*$',
  '^(\\d+\\.)+\\d+$',
  '^(\\d{3}-)+\\d{4}$',
  '(a+b+)+',
  '(cat|dog)+',
  '(ab?)+',
  '^[\\w.+-]+@[\\w-]+\\.[\\w.]+$',
  'a+a+',
  '[]]{2}',
  'a{',
  '(?<n>a)\\k<n>',
  '\\bx\\b\\x41\\u0042\\cA',
  '(\\1a)+',
];

const withPattern = (pattern: string) => ({
  crm: {
    upstream: 'http://127.0.0.1:9090',
    operations: { get_contact: 'GET /contacts/{id}' },
    rules: [{ kind: 'adhoc_rule', operation: 'get_contact', param: 'id', pattern, rule: 'Ids are digits.', message: 'id: digits' }],
  },
});

t.test('a catastrophic pattern is refused at load, its text in the message', async (t) => {
  for (const pattern of CATASTROPHIC) {
    t.throws(
      () => parseProxyConfig(withPattern(pattern), 'PROXY_CONFIG=x'),
      { message: `PROXY_CONFIG=x: crm.rules.0.pattern: the pattern '${pattern}' can backtrack catastrophically (` },
      pattern,
    );
  }
  const limit = { kind: 'feature_limit', operation: 'get_contact', param: 'id', pattern: '(a|aa)+', message: 'limit' };
  t.throws(() => parseProxyConfig({ crm: { ...withPattern('^x$').crm, rules: [limit] } }, 'x'), /crm\.rules\.0\.pattern: the pattern '\(a\|aa\)\+'/);
});

t.test('from the file PROXY_CONFIG names, and over the admin API', async (t) => {
  const file = join(t.testdir(), 'proxy.yaml');
  writeFileSync(
    file,
    `crm:\n  upstream: http://127.0.0.1:9090\n  operations: {get_contact: 'GET /contacts/{id}'}\n  rules:\n    - {kind: feature_limit, operation: ` +
      `get_contact, param: id, pattern: '^(\\d+)*$', message: m}\n`,
  );
  let thrown: unknown;
  try {
    loadProxyConfig(file);
  } catch (error) {
    thrown = error;
  }
  t.ok(thrown instanceof ProxyConfigError);
  t.match(
    (thrown as Error).message,
    "crm.rules.0.pattern: the pattern '^(\\d+)*$' can backtrack catastrophically (\\d+ can be followed by a character it matches itself",
  );

  const server = await startServer(t);
  const reply = await server.request('PUT', '/admin/proxies/crm', withPattern('(\\w+\\s?)+$').crm);
  t.equal(reply.status, 400);
  t.match(reply.body, { code: 'invalid_proxy', detail: "body: rules.0.pattern: the pattern '(\\w+\\s?)+$' can backtrack catastrophically" });
});

t.test('safe patterns load, and stay fast on the values that stall the refused ones', async (t) => {
  for (const pattern of SAFE) {
    t.equal(catastrophicBacktracking(pattern), undefined, pattern);
    t.doesNotThrow(() => parseProxyConfig(withPattern(pattern), 'x'), pattern);
  }
  t.equal(catastrophicBacktracking('(a'), undefined, 'not a regex: the schema says so');
  const value = `${'a1-.'.repeat(8)}${'a'.repeat(40)}!`;
  const started = performance.now();
  for (const pattern of SAFE) new RegExp(pattern).test(value);
  t.ok(performance.now() - started < 500, 'every accepted pattern answers at once');
});
