import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { productId } from '../fields.js';
import { ProductDetails } from '../schema.js';
import { requireProduct, type RetailDb } from '../db.js';

export default defineTool({
  name: 'get_product_details',
  description: 'A product with all its items (variants): options, price and whether each is available.',
  input: z.strictObject({ product_id: productId }),
  output: ProductDetails,
  mutates: false,
  // tau2-bench's fields only: the category our search uses is not part of its product.
  run({ product_id }, db: RetailDb) {
    const { category: _category, ...product } = requireProduct(db, product_id);
    return product;
  },
});
