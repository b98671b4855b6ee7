import type { Plan } from '../agent.js';

// Retail's plans, by task id (domains/retail/tasks/). Each plan uses only what the request says and what
// the tools answer; `agent.recovers` marks the documented recovery path, which only the oracle takes.

export const retailPlans: Record<string, Plan> = {
  'retail/001': async (agent) => {
    const user = await agent.call('find_user_id_by_email', { email: 'malik.okonkwo3001@example.com' });
    const order = await agent.call('get_order_details', { order_id: '#W5124601' });
    if (order.user_id !== user || order.status !== 'pending') return `Order #W5124601 cannot be cancelled: it is ${order.status}.`;
    const cancelled = await agent.write('cancel_pending_order', { order_id: '#W5124601', reason: 'no longer needed' });
    const refund = cancelled.payment_history.at(-1);
    return `Order #W5124601 is ${cancelled.status}. The refund of $${refund.amount} goes back to ${refund.payment_method_id}.`;
  },
};
