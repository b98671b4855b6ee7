import type { IncomingMessage, ServerResponse } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import t from 'tap';
import { ProblemError } from '../../../server/core/problem.js';
import { checkDepth, jsonOrText, MAX_ANSWER_DEPTH } from '../../../server/proxy/answer.js';
import { parseUpstream } from '../../../server/proxy/config.js';
import { HttpProxy } from '../../../server/proxy/upstream.js';
import { startServer } from '../../helpers/server.js';
import { listen } from './upstreams.js';

// What an upstream answers cannot hold a call past its deadline, crash the proxy, or reach the client as
// bytes it cannot read: each is the proxy's own problem (504 or 502), and the server stays healthy.

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

async function proxied(t: { teardown(fn: () => unknown): void }, handler: Handler, options: Record<string, unknown> = {}) {
  const upstream = await listen(t, handler);
  const config = parseUpstream({ upstream, ...options }, 'test');
  return startServer(t, { proxies: [HttpProxy.build('api', config as never, undefined)] });
}

const json = (response: ServerResponse, body: string | Buffer, headers: Record<string, string> = {}) =>
  response.writeHead(200, { 'content-type': 'application/json', ...headers }).end(body);

const nested = (depth: number, open: string, close: string, inner = 'null') => `${open.repeat(depth)}${inner}${close.repeat(depth)}`;

t.test('an upstream that trickles its body ends in a 504 within timeout_ms, not when it stops', async (t) => {
  const timers = new Set<NodeJS.Timeout>();
  t.teardown(() => timers.forEach(clearInterval));
  const server = await proxied(
    t,
    (request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('[');
      // A byte every 50 ms for 3 s: no gap is ever as long as the deadline, the whole is much longer.
      let bytes = 0;
      const timer = setInterval(() => (++bytes < 60 ? response.write(' ') : response.end(']')), 50);
      timers.add(timer);
      request.socket.on('close', () => clearInterval(timer));
    },
    { timeout_ms: 400 },
  );
  const started = performance.now();
  const reply = await server.request('GET', '/proxy/api/slow');
  const took = performance.now() - started;
  t.equal(reply.status, 504);
  t.match(reply.body, { code: 'upstream_timeout', detail: /whole answer \(headers and body\) within 400 ms \(timeout_ms\)/ });
  t.ok(took >= 350 && took < 2500, `answered after ${Math.round(took)} ms`);
  t.equal((await server.request('GET', '/health')).status, 200);
  t.match(await server.journal(), [{ tool: 'get_slow', status: 504, problem: { code: 'upstream_timeout' } }]);
});

t.test('answers nested too deep are a 502 naming why, and the server stays healthy', async (t) => {
  const bodies: Record<string, string> = {
    '/objects': nested(50_000, '{"a":', '}'),
    '/arrays': nested(200_000, '[', ']'),
    '/deepest': nested(MAX_ANSWER_DEPTH - 1, '{"a":', '}', '[1]'),
    '/one-more': nested(MAX_ANSWER_DEPTH, '{"a":', '}', '[1]'),
  };
  const server = await proxied(t, (request, response) => json(response, bodies[request.url ?? ''] ?? '{}'), { max_body_bytes: 2 * 1_048_576 });
  for (const path of ['/objects', '/arrays', '/one-more']) {
    const reply = await server.request('GET', `/proxy/api${path}`);
    t.equal(reply.status, 502, path);
    t.match(
      reply.body,
      {
        code: 'upstream_invalid_answer',
        upstream_status: 200,
        detail: `The upstream's answer is nested deeper than ${MAX_ANSWER_DEPTH} levels, more than the proxy reads.`,
      },
      path,
    );
    t.equal((await server.request('GET', '/health')).status, 200, `${path}: still healthy`);
  }
  const deepest = await server.request('GET', '/proxy/api/deepest');
  t.equal(deepest.status, 200, `${MAX_ANSWER_DEPTH} levels are read`);
  t.equal(deepest.text, bodies['/deepest']);
  const journal = await server.journal();
  t.same(
    journal.map((entry) => entry.status),
    [502, 502, 502, 200],
  );
});

t.test('an answer that says it is JSON and is not, or holds a prototype key, is a 502; other types pass as text', async (t) => {
  const server = await proxied(t, (request, response) => {
    if (request.url === '/broken') return json(response, '{"a": ');
    if (request.url === '/proto') return json(response, '{"__proto__": {"admin": true}}');
    if (request.url === '/problem') return response.writeHead(404, { 'content-type': 'application/problem+json' }).end('<html>not found</html>');
    if (request.url === '/lines') return response.writeHead(200, { 'content-type': 'application/x-ndjson' }).end('{"a":1}\n{"a":2}\n');
    response.writeHead(200, { 'content-type': 'text/plain' }).end('{"a": ');
  });
  t.match(await server.request('GET', '/proxy/api/broken'), {
    status: 502,
    body: { code: 'upstream_invalid_answer', detail: /says it is JSON \(application\/json\) but is not/ },
  });
  t.match(await server.request('GET', '/proxy/api/proto'), { status: 502, body: { detail: /holds a "__proto__" or "constructor.prototype" key/ } });
  t.match(await server.request('GET', '/proxy/api/problem'), { status: 502, body: { upstream_status: 404 } }, 'whatever the status');
  t.match(await server.request('GET', '/proxy/api/lines'), { status: 200, text: '{"a":1}\n{"a":2}\n' }, 'lines of JSON are text');
  t.match(await server.request('GET', '/proxy/api/text'), { status: 200, text: '{"a": ' }, 'text is text');
});

t.test('an answer with a status HTTP does not have is a 502, not a 500', async (t) => {
  const raw = createServer((socket) => {
    socket.on('error', () => {});
    socket.end('HTTP/1.1 999 Odd\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}');
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  // Not awaited: the proxy's pool keeps its half-closed connection until its own keep-alive ends.
  t.teardown(() => void raw.close());
  const config = parseUpstream({ upstream: `http://127.0.0.1:${(raw.address() as AddressInfo).port}` }, 'test');
  const server = await startServer(t, { proxies: [HttpProxy.build('api', config as never, undefined)] });
  t.match(await server.request('GET', '/proxy/api/x'), {
    status: 502,
    body: { code: 'upstream_invalid_answer', upstream_status: 999, detail: /status 999, which is no final HTTP status/ },
  });
});

t.test('a request body too deep to read as arguments is forwarded as sent, not a 500', async (t) => {
  const received: number[] = [];
  const server = await proxied(t, (request, response) => {
    let size = 0;
    request.on('data', (chunk: Buffer) => (size += chunk.length));
    request.on('end', () => {
      received.push(size);
      json(response, '{"ok": true}');
    });
  });
  const body = nested(100_000, '[', ']');
  const deep = await fetch(`${server.origin}/proxy/api/items`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"a": ${body}}` });
  t.equal(deep.status, 200);
  t.equal(received.at(-1), body.length + 7, 'the upstream received every byte');
  t.same((await server.journal()).at(-1).args, {}, 'no arguments read from it');
});

t.test('content codings the proxy did not ask for are decoded; unknown or broken ones are a 502 naming the coding', async (t) => {
  const data = { items: [{ id: 'c_001', name: 'Ada' }], total: 1 };
  const text = JSON.stringify(data);
  const asked: (string | undefined)[] = [];
  const server = await proxied(
    t,
    (request, response) => {
      asked.push(request.headers['accept-encoding']);
      const encoded: Record<string, [string, Buffer]> = {
        '/gzip': ['gzip', gzipSync(text)],
        '/deflate': ['deflate', deflateSync(text)],
        '/br': ['br', brotliCompressSync(text)],
        '/both': ['gzip, br', brotliCompressSync(gzipSync(text))],
        '/zstd': ['zstd', Buffer.from(text)],
        '/liar': ['gzip', Buffer.from(text)],
        '/bomb': ['gzip', gzipSync(Buffer.alloc(4 * 1_048_576, 32))],
      };
      const [coding, body] = encoded[request.url ?? '']!;
      json(response, body, { 'content-encoding': coding });
    },
    { max_body_bytes: 1_048_576 },
  );
  for (const path of ['/gzip', '/deflate', '/br', '/both']) {
    const reply = await server.request('GET', `/proxy/api${path}`);
    t.equal(reply.status, 200, path);
    t.same(reply.body, data, `${path}: decoded`);
    t.equal(reply.headers['content-encoding'], undefined, `${path}: sent as it is now, uncompressed`);
  }
  t.ok(
    asked.every((value) => value === 'identity'),
    'the proxy asked for identity',
  );
  t.match(await server.request('GET', '/proxy/api/zstd'), {
    status: 502,
    body: { code: 'upstream_encoding', encoding: 'zstd', detail: /encoded as zstd, which the proxy did not ask for and does not decode/ },
  });
  t.match(await server.request('GET', '/proxy/api/liar'), {
    status: 502,
    body: { code: 'upstream_encoding', encoding: 'gzip', detail: /labelled gzip but is not/ },
  });
  t.match(await server.request('GET', '/proxy/api/bomb'), { status: 502, body: { code: 'upstream_answer_too_large' } }, 'the limit counts decoded bytes');
  t.same(
    (await server.journal()).map((entry) => entry.result),
    [data, data, data, data, undefined, undefined, undefined],
    'hazards and the journal read the decoded answer',
  );
});

/** The problem `read` throws, if any. */
function problemOf(read: () => unknown): unknown {
  try {
    read();
  } catch (error) {
    return error instanceof ProblemError ? error.problem : error;
  }
  return undefined;
}

t.test('MCP results: text that is JSON read within the depth limit, values another parser made checked', async (t) => {
  t.same(jsonOrText('{"a": [1]}'), { a: [1] });
  t.equal(jsonOrText('plain [words]'), 'plain [words]');
  const invalid = { status: 502, code: 'upstream_invalid_answer' };
  t.match(
    problemOf(() => jsonOrText(nested(MAX_ANSWER_DEPTH + 1, '[', ']'))),
    { ...invalid, detail: /nested deeper than 256 levels/ },
  );
  t.match(
    problemOf(() => jsonOrText('{"__proto__": {}}')),
    { ...invalid, detail: /"__proto__"/ },
  );
  let value: unknown = 1;
  for (let i = 0; i < MAX_ANSWER_DEPTH; i++) value = { a: value };
  t.equal(
    problemOf(() => checkDepth(value)),
    undefined,
    `${MAX_ANSWER_DEPTH} levels`,
  );
  t.match(
    problemOf(() => checkDepth([value])),
    { ...invalid, detail: /nested deeper than 256 levels/ },
  );
});
