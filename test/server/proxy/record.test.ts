import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { parseUpstream } from '../../../server/proxy/config.js';
import { Recorder } from '../../../server/proxy/record.js';
import { HttpProxy } from '../../../server/proxy/upstream.js';
import { startServer } from '../../helpers/server.js';
import { adminApp, listen, tempFile } from './upstreams.js';

// record: <file> appends each distinct exchange with the upstream to a JSON Lines file, secrets redacted, within bounds.

const SECRETS = ['Bearer sk-live-AUTH-1', 'sid=COOKIE-2', 'sid=SETCOOKIE-3', 'KEY-4', 'hunter2-PW-5', 'tok-TOKEN-6', 'shh-SECRET-7', 'q-TOKEN-8', 'deep-PW-9'];

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** An upstream answering every request with secrets in its headers and body, and counting what reached it. */
async function secretive(t: Teardown) {
  const reached: string[] = [];
  const origin = await listen(t, (request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      reached.push(`${request.method} ${request.url}`);
      response
        .writeHead(request.url === '/missing' ? 404 : 200, { 'content-type': 'application/json', 'set-cookie': 'sid=SETCOOKIE-3', 'x-request-id': 'r1' })
        .end(
          JSON.stringify({
            url: request.url?.split('?')[0],
            session_token: 'tok-TOKEN-6',
            user: { name: 'Ann', Client_Secret: 'shh-SECRET-7' },
            echoed: body.length,
          }),
        );
    });
  });
  return { origin, reached };
}

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));

t.test('record: each distinct exchange, as the upstream answered it, with no secret in the file', async (t) => {
  const { origin } = await secretive(t);
  const file = tempFile('crm.jsonl');
  const config = parseUpstream({ upstream: origin, record: file }, 'test');
  const server = await startServer(t, { proxies: [HttpProxy.build('api', config as never, undefined)] });
  const headers = { authorization: SECRETS[0]!, cookie: SECRETS[1]!, 'x-api-key': SECRETS[3]! };
  const login = { user: 'ann', password: SECRETS[4], profile: { nested: [{ PassWord: SECRETS[8] }] } };
  const first = await server.request('POST', '/proxy/api/login', login, headers);
  t.equal(first.status, 200);
  t.equal(first.body.session_token, 'tok-TOKEN-6', 'the client receives the answer untouched');
  await server.request('POST', '/proxy/api/login', login, headers);
  await server.request('GET', `/proxy/api/items?page=2&api_token=${SECRETS[7]}`, undefined, headers);
  await server.request('GET', '/proxy/api/missing', undefined, headers);
  const bytes = readFileSync(file, 'utf8');
  for (const secret of SECRETS) t.notOk(bytes.includes(secret.replace(/^Bearer /, '').replace(/^sid=/, '')), `${secret} is not in the file`);
  const recorded = lines(file);
  t.equal(recorded.length, 3, 'the repeated request is recorded once');
  t.same(
    recorded.map((line) => `${line.method} ${line.path} ${line.response.status}`),
    ['POST /login 200', 'GET /items?page=2&api_token=%5Bredacted%5D 200', 'GET /missing 404'],
  );
  t.same(JSON.parse(recorded[0].body), { user: 'ann', password: '[redacted]', profile: { nested: [{ PassWord: '[redacted]' }] } });
  t.equal(recorded[0].response.headers['set-cookie'], '[redacted]');
  t.equal(recorded[0].response.headers['x-request-id'], 'r1', 'other headers are kept');
  t.same(JSON.parse(recorded[0].response.body).user, { name: 'Ann', Client_Secret: '[redacted]' });
  t.equal(JSON.parse(recorded[2].response.body).url, '/missing');
});

t.test("what is recorded is the upstream's answer, before a hazard changed it", async (t) => {
  const { origin } = await secretive(t);
  const file = tempFile('hazard.jsonl');
  const config = parseUpstream({ upstream: origin, record: file, operations: { get_one: 'GET /one' } }, 'test');
  const server = await startServer(t, {
    proxies: [HttpProxy.build('api', config as never, undefined)],
    hazardEnv: { HAZARD__REDUNDANT__API__GET_ONE: 'on' },
  });
  const reply = await server.request('GET', '/proxy/api/one');
  t.equal(reply.status, 200);
  t.match((await server.journal())[0], { tool: 'get_one', hazards: [{ kind: 'redundant' }] });
  const [line] = lines(file);
  t.not(reply.text, line.response.body, 'the client received a changed answer');
  t.same(Object.keys(JSON.parse(line.response.body)), ['url', 'session_token', 'user', 'echoed'], "the file holds the upstream's");
});

t.test('redact: a configured list replaces the default one', async (t) => {
  const { origin } = await secretive(t);
  const file = tempFile('custom.jsonl');
  const config = parseUpstream({ upstream: origin, record: file, redact: { headers: ['x-request-id'], fields: ['name'] } }, 'test');
  const server = await startServer(t, { proxies: [HttpProxy.build('api', config as never, undefined)] });
  await server.request('GET', '/proxy/api/one');
  const [line] = lines(file);
  t.equal(line.response.headers['x-request-id'], '[redacted]');
  t.equal(line.response.headers['set-cookie'], 'sid=SETCOOKIE-3', 'the default list no longer applies');
  t.same(JSON.parse(line.response.body).user, { name: '[redacted]', Client_Secret: 'shh-SECRET-7' });
});

t.test('record_limits: the file never grows past its bounds, with one warning', async (t) => {
  const { origin } = await secretive(t);
  const file = tempFile('bounded.jsonl');
  const config = parseUpstream({ upstream: origin, record: file, record_limits: { max_entries: 2 } }, 'test');
  const server = await startServer(t, { proxies: [HttpProxy.build('api', config as never, undefined)] });
  for (const path of ['/a', '/b', '/c', '/d']) t.equal((await server.request('GET', `/proxy/api${path}`)).status, 200, `${path} answered`);
  t.same(
    lines(file).map((line) => line.path),
    ['/a', '/b'],
  );

  const small = tempFile('bytes.jsonl');
  const warnings: string[] = [];
  const recorder = new Recorder(small, { record_limits: { max_bytes: 1024 } }, 'test');
  const answer = { status: 200, headers: {}, body: Buffer.from('x'.repeat(300)) };
  for (const path of ['/1', '/2', '/3', '/4', '/5']) await recorder.record({ method: 'GET', path, body: undefined }, answer, (m) => warnings.push(m));
  t.ok(readFileSync(small).length <= 1024, 'at most max_bytes');
  t.equal(lines(small).length, 2);
  t.equal(warnings.length, 1, 'one warning');
  t.match(warnings[0], /full \(2 exchanges.*record_limits/);

  const deep = tempFile('deep.jsonl');
  const deepBody = Buffer.from(`${'['.repeat(300)}{"password":"DEEP-PW"}${']'.repeat(300)}`);
  await new Recorder(deep, {}, 'test').record({ method: 'POST', path: '/deep', body: deepBody }, answer, (m) => warnings.push(m));
  t.notOk(readFileSync(deep, 'utf8').includes('DEEP-PW'), 'JSON too deep to walk is not kept');
  t.equal(lines(deep)[0].body, '[redacted]');

  const again = new Recorder(small, { record_limits: { max_entries: 3 } }, 'test');
  await again.record({ method: 'GET', path: '/1', body: undefined }, answer, (m) => warnings.push(m));
  await again.record({ method: 'GET', path: '/6', body: undefined }, answer, (m) => warnings.push(m));
  await again.record({ method: 'GET', path: '/7', body: undefined }, answer, (m) => warnings.push(m));
  t.same(
    lines(small).map((line) => line.path),
    ['/1', '/2', '/6'],
    'a file is continued: its requests not recorded twice, its entries counted',
  );
  writeFileSync(small, '');
  t.throws(() => new Recorder(join(small, 'not-a-dir', 'x.jsonl'), {}, 'test'), { message: /record: cannot write/ });
});

t.test('an admin call may not declare a recording file unless ADMIN_PROXY_EXEC is on', async (t) => {
  const { origin } = await secretive(t);
  const file = tempFile('admin.jsonl');
  const off = await adminApp(t, false);
  const refused = await off.put('api', { upstream: origin, record: file });
  t.equal(refused.status, 403);
  t.match(refused.body, { code: 'proxy_not_allowed', field: 'record', detail: /record: an admin call may not.*ADMIN_PROXY_EXEC=1/ });
  t.notOk(existsSync(file), 'no file was created');
  const on = await adminApp(t, true);
  t.equal((await on.put('api', { upstream: origin, record: file })).status, 200);
  t.equal((await on.request('GET', '/proxy/api/x')).status, 200);
  t.same(
    lines(file).map((line) => line.path),
    ['/x'],
  );
  t.equal((await on.put('bad', { upstream: origin, record: join(file, 'no', 'dir.jsonl') })).status, 400, 'an unwritable file is a 400');
});
