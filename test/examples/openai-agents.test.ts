import t from 'tap';
import { runAgent } from '../../examples/openai-agents/agent.js';
import { cancelOrderPrompt, cancelOrderScript } from '../../examples/openai-agents/script.js';
import { ScriptedModel } from '../../examples/openai-agents/scripted-model.js';
import { WildtoolsSession } from '../../examples/shared/wildtools.js';
import { findOrder, retailFixture } from '../helpers/retail.js';
import { startServer } from '../helpers/server.js';

t.test('an OpenAI Agents SDK agent cancels a pending order through the listed tools, reading a refusal on the way', async (t) => {
  const server = await startServer(t);
  const order = findOrder((o) => o.status === 'pending');
  const task = { email: retailFixture().users[order.user_id]!.email, orderId: order.order_id };
  const session = await WildtoolsSession.create(server.origin);
  const model = new ScriptedModel(cancelOrderScript(task));

  const final = await runAgent({ session, domain: 'retail', prompt: cancelOrderPrompt(task), model });

  t.same(
    model.seen.map((seen) => seen.name),
    ['find_user_id_by_email', 'get_order_details', 'cancel_pending_order', 'cancel_pending_order'],
    'every tool output was handed back to the model',
  );
  t.equal(model.seen[0]?.output, JSON.stringify(order.user_id), "the lookup's result is the tool's output");
  t.match(model.seen[2]?.output, /^Error: HTTP 422 .*"code":"invalid_reason"/, 'the refusal is the tool output, not an exception');
  const diff = await session.diff();
  t.match(diff['retail'], [{ table: 'orders', id: order.order_id, op: 'update', after: { status: 'cancelled', cancel_reason: 'no longer needed' } }]);
  t.equal(diff['retail']?.length, 1, 'the cancel is the only change');
  t.equal(final, `Order ${order.order_id} is now cancelled.`);
});
