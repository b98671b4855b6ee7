import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { NoInstance } from '../../task.js';
import { retailTask } from './define.js';
import { namedProducts, nameWords, plural } from './picks.js';
import { searchAll } from './solving.js';

// Whether the store sells a kind of product, and at what prices: while search is down, the catalog answers.

export default retailTask({
  id: 'retail/017',
  title: 'Do you sell this kind of product',
  categories: ['single-step'],
  pick({ db, random }) {
    const words = nameWords(db).filter((word) => namedProducts(db, word).some(({ items }) => items.length > 0));
    if (words.length === 0) throw new NoInstance('no kind of product that can be ordered');
    return { word: random.pick(words) };
  },
  request: (given) => `Do you sell ${plural(given.word)}? What's the price range of the ones I can order?`,
  answer: z.strictObject({
    products: field.set(
      z.strictObject({
        name: field.text('The product name.'),
        price_min: field.money('The lowest price of its items that can be ordered, in dollars.'),
        price_max: field.money('The highest price of its items that can be ordered, in dollars.'),
      }),
      'Every product of that kind with an item that can be ordered.',
    ),
  }),
  solve(tools, given) {
    return { products: searchAll(tools, { query: given.word }).map(({ name, price_min, price_max }) => ({ name, price_min, price_max })) };
  },
  targets: [
    {
      kind: 'outage',
      tool: 'search_product',
      recovery: 'find the product with list_all_product_types, then get_product_details',
      via: ['list_all_product_types', 'get_product_details'],
    },
    { kind: 'transient_failure', tool: 'search_product', recovery: 'retry the search' },
  ],
});
