import { answer, callTool, fieldOf, type Script } from '../shared/script.js';

export interface CancelTask {
  email: string;
  orderId: string;
}

/**
 * A short retail conversation: find the customer, read the order, try to cancel it with a reason the
 * policy does not allow, read the refusal, and cancel with an allowed one.
 */
export function cancelOrderScript({ email, orderId }: CancelTask): Script {
  return (seen) => {
    const last = seen.at(-1)?.output;
    switch (seen.length) {
      case 0:
        return callTool('find_user_id_by_email', { email });
      case 1:
        return callTool('get_order_details', { order_id: orderId });
      case 2:
        return callTool('cancel_pending_order', { order_id: orderId, reason: 'found it cheaper elsewhere' });
      case 3:
        // Only the refusal's text tells the stand-in which reasons exist: without it, it gives up.
        return last?.includes('invalid_reason')
          ? callTool('cancel_pending_order', { order_id: orderId, reason: 'no longer needed' })
          : answer(`I could not cancel order ${orderId}: ${last}`);
      default:
        return answer(`Order ${orderId} is now ${String(fieldOf(last, 'status'))}.`);
    }
  };
}

export const cancelOrderPrompt = ({ email, orderId }: CancelTask) => `My email is ${email}. Please cancel order ${orderId}: I no longer need it.`;
