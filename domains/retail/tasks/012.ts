import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { retailTask } from './define.js';
import { productIdOf } from './solving.js';

// Every item of a product with its price: the pricing service's, where the product page lags.

export default retailTask({
  id: 'retail/012',
  title: 'Every version of a product and its price',
  categories: ['parallel'],
  pick({ db, random }) {
    return { product: random.pick([...db.products.values()]).name };
  },
  request: (given) => `I'm looking at the ${given.product}. What does each version of it cost, and which ones can I order?`,
  answer: z.strictObject({
    items: field.set(
      z.strictObject({
        item_id: field.id('The item id.'),
        price: field.money('Its price, in dollars.'),
        available: field.flag('Whether it can be ordered now.'),
      }),
      'Every item (version) of the product.',
    ),
  }),
  solve(tools, given) {
    const product = tools.get_product_details({ product_id: productIdOf(tools, given.product) });
    return {
      items: Object.values(product.variants).map(({ item_id }) => {
        const item = tools.get_item_details({ item_id });
        return { item_id, price: item.price, available: item.available };
      }),
    };
  },
  targets: [{ kind: 'conflict', tool: 'get_product_details', recovery: 'quote each item price from get_item_details, the pricing service' }],
});
