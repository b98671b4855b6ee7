import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { buildCrm } from '../../examples/upstream-crm/app.js';
import { playSession, SESSION_CALLS } from '../../examples/upstream-crm/session.js';
import { type HttpUpstream, loadProxyConfig } from '../../server/proxy/config.js';
import { buildUpstream } from '../../server/proxy/proxies.js';
import { startServer } from '../helpers/server.js';
import { repositoryRoot } from '../tiers.js';

// examples/upstream-crm/recording.jsonl is the session of session.ts recorded through the proxy with record.yaml
// (the CRM asking for a bearer token). Recording the same session again gives the same file, but for the two
// headers that say when and in what order the CRM was called; no secret is in it; replay.yaml serves it.

const TOKEN = 's3cret-crm-token';
const COMMITTED = 'examples/upstream-crm/recording.jsonl';
/** Headers whose values depend on the clock, or on the requests the CRM had before (health checks). */
const VOLATILE: Readonly<Record<string, RegExp>> = { date: /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/, 'x-request-id': /^req_\d{6}$/ };
/** Names that say a value is a secret (the default redaction's words, and the token's header). */
const SECRET_NAME = /password|token|secret|authorization|cookie|api[-_]?key/i;

interface Exchange {
  method: string;
  path: string;
  body?: string;
  response: { status: number; headers: Record<string, string>; body: string };
}

const exchanges = (text: string): Exchange[] =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Exchange);

/** An exchange with its volatile headers' values replaced by their names. */
const stable = (exchange: Exchange): Exchange => ({
  ...exchange,
  response: {
    ...exchange.response,
    headers: Object.fromEntries(Object.entries(exchange.response.headers).map(([name, value]) => [name, name in VOLATILE ? `<${name}>` : value])),
  },
});

/** A PROXY_CONFIG file of upstream-crm, its paths from the repository root and the given members over its own. */
function crmConfig(file: string, over: Partial<HttpUpstream>): HttpUpstream {
  const crm = loadProxyConfig(`${repositoryRoot}examples/upstream-crm/${file}`)['crm'] as HttpUpstream;
  const fromRoot = (path: string | undefined) => (path === undefined ? undefined : `${repositoryRoot}${path}`);
  const openapi = typeof crm.openapi === 'string' ? fromRoot(crm.openapi) : crm.openapi;
  return { ...crm, openapi, ...(crm.replay ? { replay: fromRoot(crm.replay) } : {}), ...over };
}

/** Every member name and value of a JSON value, at any depth, with the name it sits under. */
function* members(value: unknown, name = ''): Generator<[string, unknown]> {
  if (Array.isArray(value)) for (const item of value) yield* members(item, name);
  else if (typeof value === 'object' && value !== null) for (const [key, member] of Object.entries(value)) yield* members(member, key);
  else yield [name, value];
}

t.test('recording the session again gives the committed recording', async (t) => {
  const crm = buildCrm({ token: TOKEN });
  const crmOrigin = await crm.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => crm.close());
  const folder = mkdtempSync(join(tmpdir(), 'wildtools-recording-'));
  t.teardown(() => rmSync(folder, { recursive: true, force: true }));
  const file = join(folder, 'recording.jsonl');
  const config = crmConfig('record.yaml', { upstream: crmOrigin, record: file });
  t.equal(
    loadProxyConfig(`${repositoryRoot}examples/upstream-crm/record.yaml`)['crm']?.['record' as never],
    COMMITTED,
    'record.yaml records into the committed file',
  );
  const server = await startServer(t, { proxies: [await buildUpstream('crm', config, 'test')] });

  const played = await playSession(server.origin, TOKEN);
  t.same(
    played.map((line) => line.split(' → ')[1]),
    ['200', '200', '201', '200', '200', '200', '404'],
    'each call of the session gets the answer it was written for (a missing contact: 404)',
  );
  const fresh = exchanges(readFileSync(file, 'utf8'));
  const committed = exchanges(readFileSync(`${repositoryRoot}${COMMITTED}`, 'utf8'));
  t.equal(committed.length, SESSION_CALLS.length, 'one exchange a call');
  t.same(
    committed.map(stable),
    fresh.map(stable),
    'the committed recording is the session recorded now (npx tsx examples/upstream-crm/session.ts: see its README)',
  );
  for (const exchange of committed)
    for (const [name, pattern] of Object.entries(VOLATILE)) t.match(exchange.response.headers[name], pattern, `${exchange.method} ${exchange.path}: ${name}`);
});

t.test('no secret is in the committed recording', async (t) => {
  const text = readFileSync(`${repositoryRoot}${COMMITTED}`, 'utf8');
  t.notOk(text.includes(TOKEN) || text.includes('s3cret'), "the CRM's token is not in it (README: CRM_TOKEN=s3cret)");
  for (const exchange of exchanges(text)) {
    const bodies = [exchange.body, exchange.response.body].filter((body): body is string => body !== undefined).map((body) => JSON.parse(body) as unknown);
    const found = [...members(exchange.response.headers), ...bodies.flatMap((body) => [...members(body)])].filter(
      ([name, value]) => SECRET_NAME.test(name) && value !== '[redacted]',
    );
    t.same(found, [], `${exchange.method} ${exchange.path}: every member or header named like a secret is redacted`);
    t.notMatch(exchange.path, /[?&][^=&]*(password|token|secret)[^=&]*=(?!%5Bredacted%5D)/i, `${exchange.path}: no secret in the query`);
  }
});

t.test('replay.yaml answers the recorded calls without the CRM, and names the nearest for another', async (t) => {
  const server = await startServer(t, { proxies: [await buildUpstream('crm', crmConfig('replay.yaml', {}), 'test')] });
  const committed = exchanges(readFileSync(`${repositoryRoot}${COMMITTED}`, 'utf8'));
  for (const [index, call] of SESSION_CALLS.entries()) {
    const reply = await server.request(call.method, `/proxy/crm${call.path}`, call.body);
    t.equal(reply.status, committed[index]!.response.status, `${call.method} ${call.path}: the recorded status`);
    t.equal(reply.text, committed[index]!.response.body, `${call.method} ${call.path}: the recorded body, byte for byte`);
  }
  const missing = await server.request('GET', '/proxy/crm/contacts/c_041');
  t.equal(missing.status, 404);
  t.equal(missing.body.code, 'replay_no_match');
  t.same(
    missing.body.nearest.map((request: { method: string; path: string }) => `${request.method} ${request.path}`),
    ['GET /contacts/c_002', 'PATCH /contacts/c_041', 'GET /contacts/c_999'],
    'the nearest recorded requests',
  );
  const journal = await server.journal();
  t.same(
    journal.slice(-2).map((entry: { tool: string; status: number }) => `${entry.tool} ${entry.status}`),
    ['get_contact 404', 'get_contact 404'],
    "replayed calls are journaled under the document's operations",
  );
});
