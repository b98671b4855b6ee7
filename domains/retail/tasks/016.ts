import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { NoInstance } from '../../task.js';
import { retailTask } from './define.js';
import { colourWords, itemsIn } from './picks.js';
import { searchAll } from './solving.js';

// Every product that comes in a colour, with the price range of its items in that colour: the results come a
// page at a time, and all of them are asked for.

export default retailTask({
  id: 'retail/016',
  title: 'Every product in stock in a colour',
  categories: ['multi-step'],
  pick({ db, random }) {
    const products = [...db.products.values()];
    const colours = colourWords(db).filter((colour) => products.filter((product) => itemsIn(product, colour).length > 0).length >= 3);
    if (colours.length === 0) throw new NoInstance('no colour that three products can be ordered in');
    return { colour: random.pick(colours) };
  },
  request: (given) => `What do you have in ${given.colour}? Give me every product I can order in ${given.colour}, with its price range in that colour.`,
  answer: z.strictObject({
    products: field.set(
      z.strictObject({
        name: field.text('The product name.'),
        price_min: field.money('The lowest price of its items in that colour that can be ordered, in dollars.'),
        price_max: field.money('The highest price of its items in that colour that can be ordered, in dollars.'),
      }),
      'Every product with an item in that colour that can be ordered.',
    ),
  }),
  solve(tools, given) {
    return { products: searchAll(tools, { query: given.colour }).map(({ name, price_min, price_max }) => ({ name, price_min, price_max })) };
  },
  targets: [{ kind: 'truncated', tool: 'search_product', recovery: 'request offset=next_offset while has_more is true' }],
});
