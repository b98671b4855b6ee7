import { connect } from 'node:net';
import t from 'tap';
import { parseUpstream } from '../../../server/proxy/config.js';
import { HttpProxy } from '../../../server/proxy/upstream.js';
import { startServer } from '../../helpers/server.js';
import { listen } from './upstreams.js';

// A proxied path never leaves the upstream's base path, however it is encoded.

/** One request sent byte for byte (no client normalises its path): status and body. */
async function rawGet(origin: string, path: string): Promise<{ status: number; body: any }> {
  const { hostname, port } = new URL(origin);
  const socket = connect(Number(port), hostname);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  let text = '';
  for await (const chunk of socket) text += chunk;
  const [head = '', body = ''] = text.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), body: body.startsWith('{') ? JSON.parse(body) : body };
}

async function proxied(t: { teardown(fn: () => unknown): void }) {
  const seen: string[] = [];
  const upstream = await listen(t, (request, response) => {
    seen.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: request.url }));
  });
  const config = parseUpstream({ upstream: `${upstream}/base` }, 'test');
  const server = await startServer(t, { proxies: [HttpProxy.build('api', config as never, undefined)] });
  return { seen, server, get: (path: string) => rawGet(server.origin, `/proxy/api/${path}`) };
}

t.test('a path that would climb above the base is refused, however it is encoded, and never forwarded', async (t) => {
  const { seen, server, get } = await proxied(t);
  const escapes = [
    '..%2f..%2foutside',
    '..%2Foutside',
    '%2e%2e/outside',
    '%2e%2e/%2e%2e/outside',
    '%2E%2E%2Foutside',
    '%2E%2E%2F%2E%2E%2Foutside',
    '.%2e/outside',
    '%2e./outside',
    '..\\outside',
    '..%5coutside',
    '%2e%2e%5C%2e%2e%5Coutside',
    'a\\..\\..\\outside',
    '%252e%252e%252foutside',
    'a/../../outside',
    'a/%2e%2e/%2e%2e/outside',
    '..',
    '%2e%2e',
    'x/..%2f..%2f..%2f',
  ];
  for (const path of escapes) {
    const reply = await get(path);
    t.equal(reply.status, 400, path);
    t.match(reply.body, { code: 'invalid_path', field: 'path', detail: /would leave the upstream's base path once decoded/ }, path);
  }
  t.same(seen, [], 'the upstream never saw one of them');
  const deep = await get('%25252525252e%25252525252e/outside');
  t.match(deep, { status: 400, body: { code: 'invalid_path', detail: /percent-encoded more than 3 times over/ } });
  t.same(await server.journal(), [], 'refused requests are not calls');
});

t.test('a path that stays below the base is forwarded: as sent, or resolved when it has dot segments', async (t) => {
  const { seen, get } = await proxied(t);
  const cases: [string, string][] = [
    ['contacts/c_001', '/base/contacts/c_001'],
    ['files/a%2fb', '/base/files/a%2fb'],
    ['search/caf%C3%A9%20au%20lait', '/base/search/caf%C3%A9%20au%20lait'],
    ['q/100%25', '/base/q/100%25'],
    ['x?path=..%2f..%2fup', '/base/x?path=..%2f..%2fup'],
    ['a/../b', '/base/b'],
    ['a/%2e%2e/b', '/base/b'],
    ['a/b/..', '/base/a/'],
    ['a/./b/.', '/base/a/b/'],
    ['a/..', '/base/'],
    ['caf%C3%A9/../caf%C3%A9%20x', '/base/caf%C3%A9%20x'],
  ];
  for (const [path, upstream] of cases) {
    const reply = await get(path);
    t.equal(reply.status, 200, path);
    t.equal(reply.body.url, upstream, `${path} → ${upstream}`);
  }
  t.equal(seen.length, cases.length);
});
