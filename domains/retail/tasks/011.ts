import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { NoInstance } from '../../task.js';
import { retailTask } from './define.js';
import { availableItems, rangeOf } from './picks.js';
import { productIdOf } from './solving.js';

// A product's price range over the items that can be ordered: the items' prices, not a feed's list prices.

export default retailTask({
  id: 'retail/011',
  title: 'What a product costs',
  categories: ['single-step'],
  pick({ db, random }) {
    const products = [...db.products.values()].filter((product) => new Set(availableItems(product).map((item) => item.price)).size >= 2);
    if (products.length === 0) throw new NoInstance('no product with two items at different prices');
    return { product: random.pick(products).name };
  },
  request: (given) => `What's the price range of the ${given.product} versions I can actually order right now?`,
  answer: z.strictObject({
    min: field.money('The lowest price among the items that can be ordered, in dollars.'),
    max: field.money('The highest price among the items that can be ordered, in dollars.'),
  }),
  solve(tools, given) {
    const product = tools.get_product_details({ product_id: productIdOf(tools, given.product) });
    return rangeOf(
      Object.values(product.variants)
        .filter((item) => item.available)
        .map((item) => tools.get_item_details({ item_id: item.item_id }).price),
    );
  },
  targets: [
    { kind: 'invocation_error', tool: 'get_product_details', recovery: 'send the api_version the error names' },
    {
      kind: 'redundant',
      tool: 'get_product_details',
      recovery: "what an item costs is its price in variants: quote the range of the available items, not the feed's price_range",
    },
  ],
});
