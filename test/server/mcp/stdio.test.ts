import { PassThrough } from 'node:stream';
import t, { type Test } from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { retail } from '../../../domains/retail/index.js';
import { serveMcpStdio } from '../../../server/mcp/stdio.js';
import { retailFixture } from '../../helpers/retail.js';
import { startServer } from '../../helpers/server.js';

// MCP over stdio, with the SDK's client on the other end of the pipes: the same tools and answers, in one
// session; a fault of the connection is the error a server wrapping an HTTP API reports.

/** The client side of a pair of pipes, framed as the SDK's stdio transports frame messages. */
function pipeTransport(fromServer: PassThrough, toServer: PassThrough): Transport {
  const buffer = new ReadBuffer();
  const transport: Transport = {
    async start() {
      fromServer.on('data', (chunk: Buffer) => {
        buffer.append(chunk);
        for (let message = buffer.readMessage(); message; message = buffer.readMessage()) transport.onmessage?.(message);
      });
    },
    async send(message: JSONRPCMessage) {
      toServer.write(serializeMessage(message));
    },
    async close() {
      fromServer.destroy();
      toServer.destroy();
      transport.onclose?.();
    },
  };
  return transport;
}

async function connect(t: Test, hazardEnv: NodeJS.ProcessEnv = {}, session?: string) {
  const server = await startServer(t, { hazardEnv });
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const stdio = await serveMcpStdio(server.app, { view: 'retail', input: toServer, output: fromServer, ...(session ? { session } : {}) });
  const client = new Client({ name: 'stdio-test', version: '1' });
  await client.connect(pipeTransport(fromServer, toServer));
  t.teardown(async () => {
    await client.close();
    await stdio.close();
  });
  return {
    server,
    client,
    call: (name: string, args: object) => client.callTool({ name, arguments: args as Record<string, unknown> }) as Promise<CallToolResult>,
  };
}

const order = Object.values(retailFixture().orders)[0]!;

t.test('lists the domain, answers as REST, journals in the named session', async (t) => {
  const { server, client, call } = await connect(t, {}, 'desk');
  t.equal((await client.listTools()).tools.length, retail.tools.length, 'the retail tools');
  const result = await call('get_order_details', { order_id: order.order_id });
  t.same(result.structuredContent, (await server.call('retail', 'get_order_details', { order_id: order.order_id })).body, 'the REST answer');
  t.equal((await server.journal('desk')).length, 1, 'journaled in desk');
});

t.test('a fault of the connection is the upstream error a wrapper reports, and a retry answers', async (t) => {
  const { server, call } = await connect(t, { HAZARD__TRANSPORT_FAULT__GET_ORDER_DETAILS: 'on', HAZARD_SEED: '5' });
  const results: CallToolResult[] = [];
  for (let i = 0; i < 4 && !results.at(-1)?.structuredContent; i++) results.push(await call('get_order_details', { order_id: order.order_id }));
  const failed = results.filter((result) => result.isError);
  t.ok(failed.length >= 1, 'at least one failure');
  for (const result of failed)
    t.match((result.content as { text: string }[])[0]!.text, /ECONNRESET|other side closed|JSON at position/, 'worded as the HTTP client or JSON parser would');
  t.equal(results.at(-1)!.structuredContent?.['order_id'], order.order_id, 'the retry answers');
  const journal = await server.journal();
  t.equal(journal.filter((entry) => entry.hazards.length > 0).length, failed.length, 'one journaled fault per failure');
});

t.test('an unknown view is refused', async (t) => {
  const server = await startServer(t);
  await t.rejects(serveMcpStdio(server.app, { view: 'groceries' }), /no tools named 'groceries'/);
});
