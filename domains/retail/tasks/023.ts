import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { roundHalfEven } from '../../../lib/money.js';
import { NoInstance } from '../../task.js';
import { orderIdField, orderStatusField } from './answers.js';
import { retailTask, retailTurn } from './define.js';
import { customerOf, methodWords, nameableMethods, namingItems, optionWords } from './picks.js';
import { authenticate, orderWith } from './solving.js';

// What a pending order holds, then one of its items swapped for another version of the same product, the
// difference on the card the customer names.

interface Given {
  name: string;
  email: string;
  /** The item that names the order. */
  product: string;
  /** The item to swap, and the options of the version wanted instead. */
  swap: string;
  options: Record<string, string>;
  card: string;
}

export default retailTask({
  id: 'retail/023',
  title: 'What is in my order, then swap an item',
  categories: ['multi-mission'],
  pick({ db, random }): Given {
    const candidates = [...db.orders.values()].flatMap((order) => {
      const user = db.users.get(order.user_id);
      const cards = user ? nameableMethods(user).filter((method) => method.source === 'credit_card') : [];
      if (order.status !== 'pending' || cards.length === 0 || namingItems(db, order).length === 0) return [];
      // An item the customer names by its product alone in the order, with another version that can be ordered.
      return order.items
        .filter((item) => order.items.filter((other) => other.name === item.name).length === 1)
        .flatMap((item) => {
          const others = Object.values(db.products.get(item.product_id)?.variants ?? {}).filter((v) => v.available && v.item_id !== item.item_id);
          return others.map((variant) => ({ order, user: user!, item, variant, card: random.pick(cards) }));
        });
    });
    if (candidates.length === 0) throw new NoInstance('no pending order with an item to swap, of a customer with a card they can name');
    const { order, user, item, variant, card } = random.pick(candidates);
    return {
      ...customerOf(user),
      product: random.pick(namingItems(db, order)),
      swap: item.name.toLowerCase(),
      options: { ...variant.options },
      card: methodWords(card),
    };
  },
  request: (given) => `Hi, ${given.name} (${given.email}). What's in my order with the ${given.product}, and what did each item cost?`,
  answer: z.strictObject({
    order_id: orderIdField('the order'),
    items: field.set(
      z.strictObject({ item_id: field.id('The item id.'), name: field.text('Its product name.'), price: field.money('What it cost, in dollars.') }),
      'Every item of the order (an item bought twice is listed twice).',
    ),
  }),
  solve(tools, given) {
    const order = orderWith(tools, given.email, given.product);
    return { order_id: order.order_id, items: order.items.map(({ item_id, name, price }) => ({ item_id, name, price })) };
  },
  follow_ups: [
    retailTurn({
      request: (given: Given) =>
        `Please swap the ${given.swap} in that order for the ${optionWords(given.options)} one, and put the price difference on ${given.card}. Yes, go ahead.`,
      answer: z.strictObject({
        new_item_id: field.id('The item now in the order instead.'),
        price_difference: field.money('The new price minus the old one, in dollars: positive when charged to the card, negative when refunded to it.'),
        status: orderStatusField('the order after the change'),
      }),
      solve(tools, given: Given) {
        const { profile } = authenticate(tools, given.email);
        const order = orderWith(tools, given.email, given.product);
        const old = order.items.find((item) => item.name.toLowerCase() === given.swap)!;
        const product = tools.get_product_details({ product_id: old.product_id });
        const wanted = Object.values(product.variants).find(
          (v) => v.available && Object.entries(given.options).every(([name, value]) => v.options[name] === value),
        )!;
        const card = Object.values(profile.payment_methods).find((method) => methodWords(method) === given.card)!;
        const updated = tools.modify_pending_order_items({
          order_id: order.order_id,
          item_ids: [old.item_id],
          new_item_ids: [wanted.item_id],
          payment_method_id: card.id,
        });
        const price = tools.get_item_details({ item_id: wanted.item_id }).price;
        return { new_item_id: wanted.item_id, price_difference: roundHalfEven(price - old.price, 2), status: updated.status };
      },
    }),
  ],
  targets: [{ kind: 'transient_failure', tool: 'modify_pending_order_items', recovery: 'retry the change with the same idempotency_key' }],
});
