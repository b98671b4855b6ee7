import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import type { Product, Variant } from '../schema.js';
import { retailTask } from './define.js';
import { availableItems, optionWords } from './picks.js';
import { productIdOf } from './solving.js';

// What several units of one item come to, worked out with the calculator.

export default retailTask({
  id: 'retail/024',
  title: 'Several units of an item',
  categories: ['single-step'],
  pick({ db, random }) {
    // An item its options name among its product's items.
    const named = (p: Product, item: Variant) =>
      Object.values(p.variants).filter((v) => Object.entries(item.options).every(([name, value]) => v.options[name] === value)).length === 1;
    const product = random.pick([...db.products.values()].filter((p) => availableItems(p).some((item) => named(p, item))));
    const item = random.pick(availableItems(product).filter((i) => named(product, i)));
    return { product: product.name, options: { ...item.options }, units: random.int(2, 6) };
  },
  request: (given) => `How much would ${given.units} of the ${given.product} (${optionWords(given.options)}) come to?`,
  answer: z.strictObject({
    item_id: field.id('The item asked about.'),
    unit_price: field.money('The price of one unit, in dollars.'),
    total: field.money('What the units come to, in dollars.'),
  }),
  solve(tools, given) {
    const product = tools.get_product_details({ product_id: productIdOf(tools, given.product) });
    const item = Object.values(product.variants).find((v) => Object.entries(given.options).every(([name, value]) => v.options[name] === value))!;
    const { price } = tools.get_item_details({ item_id: item.item_id });
    return { item_id: item.item_id, unit_price: price, total: Number(tools.calculate({ expression: `${price} * ${given.units}` })) };
  },
  targets: [{ kind: 'transient_failure', tool: 'calculate', recovery: 'retry the calculation' }],
});
