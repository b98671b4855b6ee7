import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { productId } from '../fields.js';
import { Product } from '../schema.js';
import { requireProduct, type RetailDb } from '../db.js';

export default defineTool({
  name: 'get_product_details',
  description: 'A product with all its items (variants): options, price and whether each is available.',
  input: z.strictObject({ product_id: productId }),
  output: Product,
  mutates: false,
  run: ({ product_id }, db: RetailDb) => requireProduct(db, product_id),
});
