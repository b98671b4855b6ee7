import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { NoInstance } from '../../task.js';
import { retailTask } from './define.js';
import { namedProducts, nameWords } from './picks.js';
import { searchAll } from './solving.js';

// The cheapest product of a kind that can be ordered: a deprecated search also prices items that cannot.

export default retailTask({
  id: 'retail/014',
  title: 'The cheapest of a kind',
  categories: ['single-step'],
  pick({ db, random }) {
    // Words where the deprecated search (every item priced, available or not) gives another answer.
    const words = nameWords(db).filter((word) => {
      const found = namedProducts(db, word).filter(({ items }) => items.length > 0);
      if (found.length === 0) return false;
      const low = (prices: number[]) => Math.min(...prices);
      const truth = Math.min(...found.map(({ items }) => low(items.map((item) => item.price))));
      const legacy = Math.min(
        ...namedProducts(db, word)
          .slice(0, 5)
          .map(({ product }) => low(Object.values(product.variants).map((v) => v.price))),
      );
      return legacy !== truth;
    });
    if (words.length === 0) throw new NoInstance('no kind of product whose cheapest item cannot be ordered');
    return { word: random.pick(words) };
  },
  request: (given) => `What's the cheapest ${given.word} I can order right now, and from what price?`,
  answer: z.strictObject({
    product: field.text('The name of the cheapest product of that kind that can be ordered.'),
    price: field.money('Its lowest price among the items that can be ordered, in dollars.'),
  }),
  solve(tools, given) {
    const [cheapest] = searchAll(tools, { query: given.word, sort: 'price_asc' });
    return { product: cheapest!.name, price: cheapest!.price_min };
  },
  targets: [{ kind: 'lookalike', tool: 'search_product', recovery: 'search with search_product, not the deprecated legacy search' }],
});
