import { answer, callTool, coping, fieldOf, type Script } from '../shared/script.js';

export interface CancelTask {
  email: string;
  orderId: string;
}

/**
 * A short retail conversation: find the customer, read the order, try to cancel it with a reason the
 * policy does not allow, read the refusal, and cancel with an allowed one. It copes with faults (each write
 * carries an idempotency key, so a retry after a lost answer does not cancel twice) and claims only what the
 * cancel answered.
 */
export function cancelOrderScript({ email, orderId }: CancelTask): Script {
  const cancel = (reason: string, attempt: number) =>
    callTool('cancel_pending_order', { order_id: orderId, reason, idempotency_key: `cancel-${orderId}-${attempt}` });
  return coping((seen) => {
    const last = seen.at(-1)?.output;
    switch (seen.length) {
      case 0:
        return callTool('find_user_id_by_email', { email });
      case 1:
        return callTool('get_order_details', { order_id: orderId });
      case 2:
        return cancel('found it cheaper elsewhere', 1);
      case 3:
        // Only the refusal's text tells the stand-in which reasons exist: without it, it gives up.
        return last?.includes('invalid_reason') ? cancel('no longer needed', 2) : answer(`I could not cancel order ${orderId}: ${last}`);
      default: {
        const status = fieldOf(last, 'status');
        return typeof status === 'string' ? answer(`Order ${orderId} is now ${status}.`) : answer(`I could not cancel order ${orderId}: ${last}`);
      }
    }
  });
}

export const cancelOrderPrompt = ({ email, orderId }: CancelTask) => `My email is ${email}. Please cancel order ${orderId}: I no longer need it.`;
