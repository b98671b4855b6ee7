import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { NoInstance } from '../../task.js';
import { retailTask } from './define.js';
import { namedProducts, nameWords, plural } from './picks.js';
import { searchAll } from './solving.js';

// Products of a kind under a price, each from its lowest price under it.

export default retailTask({
  id: 'retail/018',
  title: 'A kind of product under a price',
  categories: ['single-step'],
  pick({ db, random }) {
    const words = nameWords(db).filter((word) => namedProducts(db, word).some(({ items }) => items.length > 0));
    if (words.length === 0) throw new NoInstance('no kind of product that can be ordered');
    const word = random.pick(words);
    const prices = namedProducts(db, word).flatMap(({ items }) => items.map((item) => item.price));
    // A round limit between the cheapest and the dearest item, when they differ enough: some items pass, some not.
    const low = Math.min(...prices);
    const high = Math.max(...prices);
    const step = random.pick([10, 25]);
    const between = Math.ceil((low + (high - low) / 2) / step) * step;
    return { word, max_price: between < high ? between : Math.ceil((high + 1) / step) * step };
  },
  request: (given) => `What ${plural(given.word)} do you have under $${given.max_price}, and from what price?`,
  answer: z.strictObject({
    products: field.set(
      z.strictObject({
        name: field.text('The product name.'),
        price_from: field.money('Its lowest price among the items under the limit that can be ordered, in dollars.'),
      }),
      'Every product of that kind with an item under the limit that can be ordered.',
    ),
  }),
  solve(tools, given) {
    return { products: searchAll(tools, { query: given.word, max_price: given.max_price }).map(({ name, price_min }) => ({ name, price_from: price_min })) };
  },
  targets: [
    { kind: 'transport_fault', tool: 'search_product', recovery: 'retry the same call' },
    { kind: 'latency', tool: 'search_product', recovery: 'retry the search after the gateway timeout' },
  ],
});
