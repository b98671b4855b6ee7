import t from 'tap';
import { answerOf, openSocket, type RawReply } from '../helpers/raw-http.js';
import { startServer, type TestServer } from '../helpers/server.js';

// A client that trickles its request (a byte now and then, never the end) is cut off once the time to send
// it has passed: 408 and the connection closed, instead of holding a connection for as long as it likes.

const TIMEOUTS = { headersMs: 300, requestMs: 600 };

/** Writes `head`, then one byte of `drip` every 50 ms until the server closes the connection; the answer, and when it came. */
async function trickle(server: TestServer, head: string, drip: string): Promise<{ reply: RawReply; afterMs: number }> {
  const started = performance.now();
  let dripping: NodeJS.Timeout | undefined;
  // The drip starts once the head is written: on a loaded machine the connection can take longer than one drip.
  const socket = openSocket(server.origin, () => {
    socket.write(head);
    dripping = setInterval(() => {
      if (socket.writable) socket.write(drip);
    }, 50);
  });
  try {
    return { reply: await answerOf(socket), afterMs: performance.now() - started };
  } finally {
    clearInterval(dripping);
  }
}

t.test('a body that never ends is cut off after the request timeout', async (t) => {
  const server = await startServer(t, { timeouts: TIMEOUTS });
  const { reply, afterMs } = await trickle(
    server,
    'POST /retail/tools/calculate HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"expression": "1',
    ' ',
  );
  t.match(reply, { status: 408, body: { code: 'request_timeout' } }, '408, in problem JSON');
  t.ok(afterMs >= TIMEOUTS.requestMs && afterMs < TIMEOUTS.requestMs + 1_500, `after the timeout, not much later (${Math.round(afterMs)} ms)`);
  t.equal((await server.call('retail', 'calculate', { expression: '1 + 1' })).status, 200, 'the server answers others meanwhile');
});

t.test('headers that never end are cut off after the headers timeout', async (t) => {
  const server = await startServer(t, { timeouts: TIMEOUTS });
  const { reply, afterMs } = await trickle(server, 'GET /health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ', 'a');
  t.match(reply, { status: 408, body: { code: 'request_timeout' } });
  t.ok(afterMs >= TIMEOUTS.headersMs && afterMs < TIMEOUTS.headersMs + 1_500, `after the timeout, not much later (${Math.round(afterMs)} ms)`);
});
