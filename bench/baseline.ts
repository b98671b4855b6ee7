// The yardstick: a bare fastify server whose one route does what a read tool does at its
// core — parse a JSON body, look a record up in a Map, send it back as JSON.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const db = JSON.parse(readFileSync(new URL('../fixtures/retail.json', import.meta.url), 'utf8')) as { orders: Record<string, unknown> };
const orders = new Map(Object.entries(db.orders));
const app = Fastify({ logger: false });
app.post('/orders', async (request, reply) => {
  const order = orders.get((request.body as { order_id: string }).order_id);
  return order ?? reply.code(404).send({ detail: 'Order not found' });
});
await app.listen({ port: Number(process.env['PORT'] ?? 0), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
