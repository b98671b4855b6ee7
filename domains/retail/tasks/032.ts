import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { NoInstance } from '../../task.js';
import { retailTask } from './define.js';
import { availableItems } from './picks.js';
import { productIdOf } from './solving.js';

// Two products compared by their lowest price among the items that can be ordered.

export default retailTask({
  id: 'retail/032',
  title: 'Which of two products starts cheaper',
  categories: ['parallel'],
  pick({ db, random }) {
    const low = (p: Parameters<typeof availableItems>[0]) => Math.min(...availableItems(p).map((item) => item.price));
    const products = [...db.products.values()].filter((product) => availableItems(product).length > 0);
    if (products.length < 2) throw new NoInstance('no two products that can be ordered');
    const first = random.pick(products);
    // Not two products from the same price: one of them starts cheaper.
    const second = random.pick(products.filter((product) => product !== first && low(product) !== low(first)));
    return { products: [first.name, second.name] };
  },
  request: (given) => `Which starts cheaper among the versions I can order: the ${given.products[0]} or the ${given.products[1]}? From what price is each?`,
  answer: z.strictObject({
    cheaper: field.text('The name of the product that starts cheaper.'),
    prices: field.set(
      z.strictObject({ product: field.text('The product name.'), from: field.money('Its lowest price among the items that can be ordered, in dollars.') }),
      'Each of the two products with its lowest price.',
    ),
  }),
  solve(tools, given) {
    const prices = given.products.map((name) => {
      const product = tools.get_product_details({ product_id: productIdOf(tools, name) });
      const items = Object.values(product.variants).filter((item) => item.available);
      return { product: name, from: Math.min(...items.map((item) => tools.get_item_details({ item_id: item.item_id }).price)) };
    });
    const [a, b] = prices;
    return { cheaper: a!.from <= b!.from ? a!.product : b!.product, prices };
  },
  targets: [{ kind: 'invocation_error', tool: 'get_product_details', recovery: 'send the api_version the error names' }],
});
