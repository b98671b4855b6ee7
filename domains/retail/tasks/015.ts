import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { NoInstance } from '../../task.js';
import { retailTask } from './define.js';
import { customerOf, namedProducts, nameWords, plural } from './picks.js';
import { authenticate, searchAll } from './solving.js';

// The cheapest item of a kind under a price into the customer's cart: sponsored results are not matches.

/** A price limit that some items of the kind pass: a round number above the cheapest one. */
const limitAbove = (price: number, step: number) => Math.ceil((price + 1) / step) * step;

export default retailTask({
  id: 'retail/015',
  title: 'Cheapest of a kind into the cart',
  categories: ['multi-step'],
  pick({ db, random }) {
    const pricesOf = (word: string) =>
      namedProducts(db, word)
        .flatMap(({ items }) => items.map((item) => item.price))
        .sort((a, b) => a - b);
    // One cheapest item: the request names no tie-break.
    const words = nameWords(db).filter((word) => pricesOf(word).length > 0 && pricesOf(word)[0] !== pricesOf(word)[1]);
    if (words.length === 0) throw new NoInstance('no kind of product that can be ordered');
    const word = random.pick(words);
    const prices = pricesOf(word);
    const max_price = limitAbove(prices[0]!, random.pick([10, 25, 50]));
    // A customer whose cart has room for one more unit of any item.
    const users = [...db.users.values()].filter((user) => (db.carts.get(user.user_id)?.items ?? []).every((line) => line.quantity < 10));
    return { ...customerOf(random.pick(users)), word, max_price };
  },
  request: (given) =>
    `Hi, I'm ${given.name} (${given.email}). I want ${plural(given.word)} under $${given.max_price}. Please put one unit of the cheapest one you have in ` +
    `stock into my cart - yes, go ahead.`,
  answer: z.strictObject({
    item_id: field.id('The item put into the cart.'),
    product: field.text('Its product name.'),
    price: field.money('Its price, in dollars.'),
  }),
  solve(tools, given) {
    const { user_id } = authenticate(tools, given.email);
    const [cheapest] = searchAll(tools, { query: given.word, max_price: given.max_price, sort: 'price_asc' });
    const product = tools.get_product_details({ product_id: cheapest!.product_id });
    const item = Object.values(product.variants)
      .filter((variant) => variant.available && variant.price <= given.max_price)
      .sort((a, b) => a.price - b.price || (a.item_id < b.item_id ? -1 : 1))[0]!;
    tools.add_to_cart({ user_id, item_id: item.item_id, quantity: 1 });
    return { item_id: item.item_id, product: product.name, price: item.price };
  },
  targets: [
    { kind: 'sponsored', tool: 'search_product', recovery: 'leave sponsored results out: they are advertisements, not matches' },
    { kind: 'transient_failure', tool: 'add_to_cart', recovery: 'retry the write' },
  ],
  claims: ['item_id'],
});
