import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { hash32 } from '../../../lib/random.js';
import { productId } from '../fields.js';
import { ProductDetails, type Variant } from '../schema.js';
import { requireProduct, type RetailDb } from '../db.js';
import { isoTime, RETAIL_NOW } from '../derive.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { RETAIL_ERRORS } from '../errors.js';

const HOUR_MS = 3_600_000;

/** When the catalog last republished a product page: within the two weeks before the world's "now", fixed per product. */
export const catalogUpdatedAt = (product_id: string): string => isoTime(RETAIL_NOW - (6 + (hash32('catalog-updated', product_id) % (14 * 24))) * HOUR_MS);

const PriceRange = z.object({ min: z.number(), max: z.number(), currency: z.literal('USD') });

/** The range a product page shows: over the items that can be ordered, else over all of them. */
export function priceRange(variants: readonly Variant[]): z.infer<typeof PriceRange> {
  const available = variants.filter((v) => v.available);
  const prices = (available.length > 0 ? available : variants).map((v) => v.price);
  return prices.length === 0 ? { min: 0, max: 0, currency: 'USD' } : { min: Math.min(...prices), max: Math.max(...prices), currency: 'USD' };
}

export default defineTool({
  name: 'get_product_details',
  description: 'A product with all its items (variants): options, price and whether each is available.',
  input: z.strictObject({ product_id: productId }),
  output: ProductDetails.extend({
    price_range: PriceRange.describe("The product page's price range: lowest and highest price of the items that can be ordered (of all items when none can)."),
    catalog_updated_at: z.string().describe('ISO 8601 time the catalog last published this product page.'),
  }),
  errors: codesOf(RETAIL_ERRORS, 'product_not_found'),
  mutates: false,
  // tau2-bench's fields, with the page's price range and publication time: the category our search uses is not part of its product.
  example: { product_id: '1080843021' },
  run({ product_id }, db: RetailDb) {
    const { category: _category, name, variants, ...product } = requireProduct(db, product_id);
    return { name, ...product, price_range: priceRange(Object.values(variants)), variants, catalog_updated_at: catalogUpdatedAt(product.product_id) };
  },
});
