import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { UnexpectedResponseError, WildtoolsClient } from '../../client/index.js';

// Answers no API defines, as gateways and broken connections give them, from a bare HTTP server.

const ANSWERS: Record<string, (response: ServerResponse) => void> = {
  '/html': (response) => response.writeHead(502, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>'),
  '/foreign-json': (response) => response.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"Internal server error"}'),
  '/not-json': (response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"order_id": "#W1'),
  '/long': (response) => response.writeHead(503, { 'content-type': 'text/plain' }).end('x'.repeat(1000)),
  '/bare': (response) => response.writeHead(502).end('bad gateway'),
  '/reset': (response) => response.socket?.destroy(),
  '/truncated': (response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    response.write('{"order_id":');
    setImmediate(() => response.socket?.destroy());
  },
};

async function bareServer(t: { teardown(fn: () => unknown): void }): Promise<string> {
  const server = createServer((request, response) => ANSWERS[request.url!.replace(/^\/retail\/tools/, '')]!(response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function failure(client: WildtoolsClient, path: string): Promise<UnexpectedResponseError> {
  const error = await client.call('retail', path.slice(1) as 'get_order_details', { order_id: '#W1' }).catch((caught: unknown) => caught);
  if (!(error instanceof UnexpectedResponseError)) throw new Error(`${path}: expected an UnexpectedResponseError, got ${String(error)}`);
  return error;
}

t.test('every answer outside the API is an UnexpectedResponseError that says what was received', async (t) => {
  const client = new WildtoolsClient({ baseUrl: await bareServer(t) });
  t.teardown(() => client.close());
  const expected: Record<string, RegExp> = {
    '/html': /answered 502 text\/html, something other than problem JSON: "<html><body><h1>502 Bad Gateway/,
    '/foreign-json': /answered 500 application\/json, something other than problem JSON: "\{\\"message\\":\\"Internal server error\\"\}"/,
    '/not-json': /answered 200 application\/json, a body that is not JSON: "\{\\"order_id\\": \\"#W1"/,
    '/long': /answered 503 text\/plain, something other than problem JSON: "x{200}… \(1000 characters\)"$/,
    '/bare': /answered 502 without a content type/,
    '/reset': /the connection failed before any answer: /,
    '/truncated': /the connection failed after the head of a 200 answer \(a truncated body\): /,
  };
  for (const [path, pattern] of Object.entries(expected)) {
    const error = await failure(client, path);
    t.match(error.message, new RegExp(`^POST /retail/tools${path}: `), `${path}: names the request`);
    t.match(error.message, pattern, `${path}: says what came back`);
  }
  t.equal((await failure(client, '/html')).status, 502, 'the status when an answer arrived');
  t.equal((await failure(client, '/reset')).status, undefined, 'none when the connection failed first');
});
