// The yardstick: a bare fastify server whose routes do what a tool does at its core — parse a JSON body,
// look a record up in a Map (a read), or copy it, change it and put it back (a write), and send it back
// as JSON.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

type Order = Record<string, unknown>;
const db = JSON.parse(readFileSync(new URL('../fixtures/retail.json', import.meta.url), 'utf8')) as { orders: Record<string, Order> };
const orders = new Map(Object.entries(db.orders));
const app = Fastify({ logger: false });
app.post('/orders', async (request, reply) => {
  const order = orders.get((request.body as { order_id: string }).order_id);
  return order ?? reply.code(404).send({ detail: 'Order not found' });
});
app.post('/orders/address', async (request, reply) => {
  const { order_id, ...address } = request.body as { order_id: string } & Record<string, string>;
  const order = orders.get(order_id);
  if (!order) return reply.code(404).send({ detail: 'Order not found' });
  const changed = { ...structuredClone(order), address };
  orders.set(order_id, changed);
  return changed;
});
await app.listen({ port: Number(process.env['PORT'] ?? 0), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
