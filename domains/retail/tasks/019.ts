import { checkoutAnswer, checkoutWith, pickCheckout } from './checkouts.js';
import { retailTask } from './define.js';

// Checkout of the customer's cart with the card they name.

export default retailTask({
  id: 'retail/019',
  title: 'Check out my cart',
  categories: ['multi-step'],
  pick: ({ db, random }) => pickCheckout(db, random, (method) => method.source === 'credit_card'),
  request: (given) =>
    `Hi, ${given.name} here (${given.email}). Please check out my cart with ${given.method} and ship it to my default address. Yes, place the order. What ` +
    `was I charged?`,
  answer: checkoutAnswer,
  solve: checkoutWith,
  targets: [
    { kind: 'invocation_error', tool: 'checkout', recovery: 'send an idempotency_key with the checkout' },
    {
      kind: 'unknown_outcome',
      tool: 'checkout',
      recovery: 'send it with an idempotency key and repeat it with the same key: a checkout that went through is replayed, not placed twice',
    },
  ],
  claims: ['order_id'],
});
