import { readFileSync, writeFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import { parseUpstream } from '../../../server/proxy/config.js';
import { HttpProxy } from '../../../server/proxy/upstream.js';
import { startServer } from '../../helpers/server.js';
import { adminApp, listen, tempFile } from './upstreams.js';

// replay: <file> serves a recording's answers with no upstream, matched by method, path and body, hazards on top.

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const EXCHANGES: [Method, string, unknown?][] = [
  ['GET', '/items?a=1&b=2'],
  ['GET', '/items/7'],
  ['POST', '/orders', { item: 7, lines: [{ qty: 2, sku: 'x' }], password: 'pw-SECRET' }],
  ['GET', '/notes.txt'],
  ['GET', '/missing'],
];

/** Records the exchanges against a small upstream, then stops it; the file and what the upstream answered. */
async function recorded(t: Test) {
  const file = tempFile('api.jsonl');
  const answers: { status: number; type: string | undefined; text: string }[] = [];
  const reached: string[] = [];
  await t.test('recording', async (t) => {
    const upstream = await listen(t, (request, response) => {
      reached.push(`${request.method} ${request.url}`);
      request.resume();
      if (request.url === '/notes.txt') return response.writeHead(200, { 'content-type': 'text/plain' }).end('plain  text\n');
      if (request.url === '/missing') return response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      response.writeHead(request.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' }).end(`{ "url": "${request.url}",  "n": 1 }`);
    });
    const config = parseUpstream({ upstream, record: file }, 'test');
    const server = await startServer(t, { proxies: [HttpProxy.build('api', config as never, undefined)] });
    for (const [method, path, body] of EXCHANGES) {
      const reply = await server.request(method, `/proxy/api${path}`, body);
      answers.push({ status: reply.status, type: reply.headers['content-type'] as string | undefined, text: reply.text });
    }
  });
  return { file, answers, reached };
}

async function replaying(t: Test, settings: Record<string, unknown>, hazardEnv?: NodeJS.ProcessEnv) {
  const config = parseUpstream(settings, 'test');
  return startServer(t, { proxies: [HttpProxy.build('api', config as never, undefined)], ...(hazardEnv ? { hazardEnv } : {}) });
}

t.test('replay: the recorded answers, byte for byte, with no upstream', async (t) => {
  const { file, answers, reached } = await recorded(t);
  const before = reached.length;
  const server = await replaying(t, { replay: file });
  for (const [index, [method, path, body]] of EXCHANGES.entries()) {
    const reply = await server.request(method, `/proxy/api${path}`, body);
    t.equal(reply.status, answers[index]!.status, `${method} ${path}: status`);
    t.equal(reply.headers['content-type'], answers[index]!.type, `${method} ${path}: content type`);
    t.equal(reply.text, answers[index]!.text, `${method} ${path}: the same bytes`);
  }
  t.equal(reached.length, before, 'the upstream was not called');
  t.equal(answers[3]!.text, 'plain  text\n');
  const journal = await server.journal();
  t.same(
    journal.map((entry) => `${entry.tool} ${entry.status}`),
    ['get_items 200', 'get_items_id 200', 'post_orders 201', 'get_notes_txt 200', 'get_missing 404'],
  );
});

t.test('match: query in any order, JSON bodies as JSON, and the options that leave them out', async (t) => {
  const { file } = await recorded(t);
  const server = await replaying(t, { replay: file });
  t.equal((await server.request('GET', '/proxy/api/items?b=2&a=1')).status, 200, 'query order does not matter');
  t.equal((await server.request('GET', '/proxy/api/items?a=1&b=3')).status, 404, 'a query value does');
  const reordered = '{"password":"another","lines":[{"sku":"x","qty":2}],"item":7}';
  t.equal(
    (await server.request('POST', '/proxy/api/orders', reordered, { 'content-type': 'application/json' })).status,
    201,
    'JSON compared as JSON, secrets redacted',
  );
  t.equal((await server.request('POST', '/proxy/api/orders', { item: 8, lines: [] })).status, 404, 'another body does not match');
  t.equal((await server.request('DELETE', '/proxy/api/items/7')).status, 404, 'nor another method');

  const loose = await replaying(t, { replay: file, match: { body: false, query: false } });
  t.equal((await loose.request('POST', '/proxy/api/orders', { item: 8 })).status, 201, 'match.body: false');
  t.equal((await loose.request('GET', '/proxy/api/items?z=9')).status, 200, 'match.query: false');
  t.equal((await loose.request('GET', '/proxy/api/items/8')).status, 404, 'the path still counts');
});

t.test('an unmatched request is a 404 problem naming the nearest recorded requests', async (t) => {
  const { file } = await recorded(t);
  const server = await replaying(t, { replay: file });
  const miss = await server.request('GET', '/proxy/api/items/8');
  t.equal(miss.status, 404);
  t.match(miss.headers['content-type'], /problem\+json/);
  t.equal(miss.body.code, 'replay_no_match');
  t.equal(miss.body.nearest.length, 3, 'at most three');
  t.same(miss.body.nearest[0], { method: 'GET', path: '/items/7' }, 'the nearest first');
  t.match(miss.body.detail, /no answer to GET \/items\/8; nearest recorded: GET \/items\/7, /);
  const journal = await server.journal();
  t.match(journal.at(-1), { status: 404, problem: { code: 'replay_no_match' } }, 'journaled as a problem');
  writeFileSync(file, '');
  const empty = await replaying(t, { replay: file });
  t.match((await empty.request('GET', '/proxy/api/x')).body, { code: 'replay_no_match', nearest: [], detail: /it is empty/ });
});

t.test('hazards apply over a replayed answer, and are journaled', async (t) => {
  const { file } = await recorded(t);
  const server = await replaying(t, { replay: file, operations: { get_item: 'GET /items/{id}' } }, { HAZARD__OUTAGE__API__GET_ITEM: 'on' });
  const down = await server.request('GET', '/proxy/api/items/7');
  t.equal(down.status, 503);
  t.equal((await server.request('GET', '/proxy/api/items?a=1&b=2')).status, 200, 'another operation is served');
  const journal = await server.journal();
  t.match(journal[0], { tool: 'get_item', status: 503, hazards: [{ kind: 'outage', tool: 'get_item' }] });
});

t.test('declaring a replay: no upstream needed, a bad file refused, admin calls refused without ADMIN_PROXY_EXEC', async (t) => {
  const { file } = await recorded(t);
  t.throws(() => parseUpstream({}, 'test'), { message: /upstream: .*a recording to replay/ });
  t.throws(() => parseUpstream({ upstream: 'http://127.0.0.1:9', record: file, replay: file }, 'test'), { message: /replay: record or replay, not both/ });
  t.throws(() => parseUpstream({ replay: file, match: { body: 'no' } }, 'test'), { message: /match\.body: .*boolean/ });
  const bad = tempFile('bad.jsonl');
  writeFileSync(bad, `${readFileSync(file, 'utf8')}{"method":"GET"}\n`);
  t.throws(() => HttpProxy.build('api', parseUpstream({ replay: bad }, 'test') as never, undefined), {
    message: /replay: .*bad\.jsonl line 6: not a recorded exchange \(path: /,
  });
  t.throws(() => HttpProxy.build('api', parseUpstream({ replay: `${bad}.absent` }, 'test') as never, undefined), { message: /replay: / });

  const off = await adminApp(t, false);
  const refused = await off.put('api', { replay: file });
  t.equal(refused.status, 403);
  t.match(refused.body, { code: 'proxy_not_allowed', field: 'replay', detail: /replay: an admin call may not.*ADMIN_PROXY_EXEC=1/ });
  t.equal((await off.request('GET', '/proxy/api/items/7')).status, 404, 'nothing declared');
  const on = await adminApp(t, true);
  const declared = await on.put('api', { replay: file });
  t.equal(declared.status, 200);
  t.equal(declared.body.upstream, `replay: ${file}`);
  t.equal((await on.request('GET', '/proxy/api/items/7')).text, '{ "url": "/items/7",  "n": 1 }');
  t.equal((await on.put('bad', { replay: bad })).status, 400, 'a bad recording is a 400');
});
