import t from 'tap';
import { envWord, headerText } from '../../lib/text.js';

t.test('headerText: what any HTTP header can carry', async (t) => {
  t.equal(headerText('°C ↔ °F, café — “quoted”…'), ' degC <->  degF, cafe - "quoted"...');
  t.equal(headerText('Zürich 東京'), 'Zurich ??');
  t.match(headerText('a\u0000b\nc'), /^[\x20-\x7e]*$/, 'no control characters');
  t.equal(headerText('plain text'), 'plain text');
});

t.test('envWord: a name as environment variables spell it', async (t) => {
  t.equal(envWord('smart-home'), 'SMART_HOME');
  t.equal(envWord('retail'), 'RETAIL');
});

t.test('a hint that is not Latin-1 still reaches the agent as a header', async (t) => {
  const { startServer } = await import('../helpers/server.js');
  const server = await startServer(t);
  const session = await server.newSession({ hazards: { tools: { retail__get_order_details: { output_drift: 1 } }, hints: true } });
  const { findOrder } = await import('../helpers/retail.js');
  const order = findOrder((o) => o.status === 'delivered');
  await server.call('retail', 'get_order_details', { order_id: order.order_id }, session);
  const reply = await server.call('retail', 'get_order_details', { order_id: order.order_id }, session);
  t.equal(reply.status, 200);
  t.match(reply.headers['x-hint'], /^[\x20-\x7e]+$/);
});
