import { checkoutAnswer, checkoutWith, pickCheckout } from './checkouts.js';
import { retailTask } from './define.js';

// Checkout of the customer's cart with whichever of their methods they name: a card, PayPal or a gift card
// that covers the total.

export default retailTask({
  id: 'retail/020',
  title: 'Place the order in my cart',
  categories: ['multi-step'],
  pick: ({ db, random }) => pickCheckout(db, random, () => true),
  request: (given) =>
    `Hello, ${given.name} (${given.email}). I'm ready: please check out my cart with ${given.method}, shipping to my default address - yes, go ahead. Tell ` +
    `me the total.`,
  answer: checkoutAnswer,
  solve: checkoutWith,
  targets: [
    { kind: 'transient_failure', tool: 'checkout', recovery: 'retry the checkout with the same idempotency_key' },
    { kind: 'transport_fault', tool: 'checkout', recovery: 'retry the checkout with the same idempotency_key: it was not applied' },
    {
      kind: 'latency',
      tool: 'checkout',
      recovery: 'send it with an idempotency key and repeat it with the same key: a checkout that went through is replayed, not placed twice',
    },
  ],
  claims: ['order_id'],
});
