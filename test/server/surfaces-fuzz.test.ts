import t, { type Test } from 'tap';
import { raw, type RawReply } from '../helpers/raw-http.js';
import { startProxied } from '../helpers/proxy.js';
import { startServer, type TestServer } from '../helpers/server.js';

// The same hostile requests to every surface (a REST tool, MCP, OpenEnv over HTTP and its WebSocket
// handshake, a proxied upstream): each answers, never with a 5xx, and a refusal says why in problem JSON
// (MCP's own refusals in JSON-RPC, as its clients expect). With API_TOKEN and without: the Host is then
// judged differently, and MCP sees what the guard lets through.

const API = 'api-token-0123456789abcdefgh';
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
});

interface Target {
  method: string;
  path: string;
  body: string;
  headers?: string;
}

const TARGETS: Target[] = [
  { method: 'POST', path: '/retail/tools/calculate', body: '{"expression": "1 + 1"}' },
  { method: 'POST', path: '/mcp', body: INITIALIZE, headers: 'Accept: application/json, text/event-stream\r\n' },
  { method: 'GET', path: '/retail/mcp', body: '', headers: 'Accept: text/event-stream\r\n' },
  { method: 'POST', path: '/openenv/reset', body: '{}' },
  { method: 'POST', path: '/openenv/step', body: '{"action": {"type": "list_tools"}, "session_id": "default"}' },
  { method: 'GET', path: '/openenv/state', body: '' },
  { method: 'POST', path: '/openenv/mcp', body: '{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}' },
  { method: 'GET', path: '/openenv/tasks?split=train', body: '' },
  { method: 'GET', path: '/openenv/openapi.json', body: '' },
  ...['/openenv/ws', '/openenv/mcp'].map((path) => ({
    method: 'GET',
    path,
    body: '',
    headers: 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n',
  })),
];
const PROXIED: Target = { method: 'POST', path: '/proxy/crm/contacts', body: '{"name": "Ada", "email": "ada@example.com"}' };

/** A hostile variation of a well-formed request: its Host, its target, its body, its headers. */
interface Variation {
  name: string;
  host?: string;
  target?: (path: string) => string;
  body?: string;
  type?: string;
  extra?: string;
}

const VARIATIONS: Variation[] = [
  { name: 'as sent' },
  ...['bad host', 'a[b', '[::1', 'x]y', 'ex ample:80', '', 'localhost:99999', 'evil.example', '[::1]:8080', '127.0.0.1:0'].map((host) => ({
    name: `Host ${JSON.stringify(host)}`,
    host,
  })),
  ...['http://localhost', 'http://evil.example', 'http://[::1]:1', 'http://user@localhost:8080', 'https://a[b'].map((origin) => ({
    name: `absolute-form ${origin}`,
    target: (path: string) => `${origin}${path}`,
  })),
  { name: 'a target that is no path', target: () => '*' },
  { name: 'malformed JSON', body: '{"expression": ' },
  { name: 'JSON that is not an object', body: '[[[[[[1]]]]]]' },
  { name: 'a __proto__ key', body: '{"__proto__": {"admin": true}}' },
  { name: 'a huge header', extra: `X-Padding: ${'p'.repeat(20_000)}\r\n` },
  { name: 'many headers', extra: Array.from({ length: 500 }, (_, i) => `X-H${i}: ${i}\r\n`).join('') },
  { name: 'a header with obs-text', extra: 'X-Text: caf\u00e9\r\n' },
  { name: 'text/plain', type: 'text/plain' },
  { name: 'a form', type: 'application/x-www-form-urlencoded' },
  { name: 'multipart', type: 'multipart/form-data; boundary=x' },
  { name: 'JSON in UTF-16', type: 'application/json; charset=utf-16' },
  { name: 'a content type that is no media type', type: '\u00ff/\u00ff' },
];

function requestText(target: Target, variation: Variation, auth: string): string {
  const path = variation.target ? variation.target(target.path) : target.path;
  const body = variation.body ?? target.body;
  const type = variation.type ?? 'application/json';
  const host = variation.host ?? 'localhost';
  const content = body === '' && target.method === 'GET' ? '' : `Content-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body, 'latin1')}\r\n`;
  const connection = target.headers?.includes('Connection:') ? '' : 'Connection: close\r\n';
  return `${target.method} ${path} HTTP/1.1\r\nHost: ${host}\r\n${auth}${target.headers ?? ''}${content}${variation.extra ?? ''}${connection}\r\n${body}`;
}

/** What is wrong with an answer, or undefined: no answer, a 5xx, a refusal without a structured reason. */
function fault(reply: RawReply, target: Target): string | undefined {
  if (reply.status === 0) return 'no answer';
  if (reply.status >= 500) return `${reply.status} ${JSON.stringify(reply.body).slice(0, 200)}`;
  if (reply.status < 400 || reply.status === 101) return undefined;
  const body = reply.body as Record<string, unknown> | undefined;
  // A proxied upstream's own refusals are its business: problem JSON, without wildtools' codes.
  const coded = typeof body?.['code'] === 'string' || target === PROXIED;
  const isProblem = /^application\/problem\+json/.test(reply.type) && body?.['status'] === reply.status && coded;
  const isRpc = target.path.endsWith('/mcp') && body?.['jsonrpc'] === '2.0' && typeof body?.['error'] === 'object';
  return isProblem || isRpc ? undefined : `${reply.status} without a problem: ${reply.type} ${JSON.stringify(reply.body).slice(0, 200)}`;
}

async function fuzz(t: Test, server: TestServer, targets: readonly Target[], auth: string) {
  const cases = targets.flatMap((target) => VARIATIONS.map((variation) => ({ target, variation })));
  const faults: string[] = [];
  const statuses = new Map<number, number>();
  // A batch at a time: every case on a connection of its own, never so many that they queue.
  for (let i = 0; i < cases.length; i += 32) {
    await Promise.all(
      cases.slice(i, i + 32).map(async ({ target, variation }) => {
        const reply = await raw(server.origin, requestText(target, variation, auth)).catch(
          (error: Error): RawReply => ({ status: 0, type: '', body: error.message }),
        );
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        const wrong = fault(reply, target);
        if (wrong) faults.push(`${target.method} ${target.path}, ${variation.name}: ${wrong}`);
      }),
    );
  }
  t.same(faults, [], `${cases.length} hostile requests: each answered, none with a 5xx, every refusal with its reason`);
  t.ok(statuses.get(400)! > 0 && statuses.get(415)! > 0 && statuses.get(431)! > 0, `refusals of every sort (${JSON.stringify([...statuses])})`);
  // A connection nobody closed (a refused WebSocket handshake) would hold the server's close for ever.
  const closed = await Promise.race([server.app.close().then(() => true), new Promise((resolve) => setTimeout(resolve, 5_000, false))]);
  t.ok(closed, 'and no connection is left open: the server closes at once');
}

t.test('without API_TOKEN: every surface, a proxied upstream too', async (t) => {
  const { server } = await startProxied(t);
  await fuzz(t, server, [...TARGETS, PROXIED], '');
});

t.test('with API_TOKEN: Host is not judged, and MCP never sees one it cannot handle', async (t) => {
  const server = await startServer(t, { access: { apiToken: API } });
  await fuzz(t, server, TARGETS, `Authorization: Bearer ${API}\r\n`);
});

t.test('MCP: a Host that is no host is a 400 problem; one no URL can hold (port 99999) is served', async (t) => {
  const server = await startServer(t, { access: { apiToken: API } });
  const initialize = (host: string, target = '/mcp') =>
    raw(server.origin, requestText({ ...TARGETS[1]!, path: target }, { name: host, host }, `Authorization: Bearer ${API}\r\n`));
  for (const host of ['bad host', 'a[b', '[::1']) t.match(await initialize(host), { status: 400, body: { code: 'invalid_host' } }, JSON.stringify(host));
  t.match(await initialize('localhost:99999'), { status: 200, body: { result: { serverInfo: Object } } }, 'localhost:99999');
  t.match(await initialize('localhost', 'http://evil.example/mcp'), { status: 200, body: { result: { serverInfo: Object } } }, 'an absolute-form target');
});
