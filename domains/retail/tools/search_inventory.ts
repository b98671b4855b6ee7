import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { RETAIL_ERRORS } from '../errors.js';
import { itemId, productId } from '../fields.js';
import { WAREHOUSES, type Product, type Variant } from '../schema.js';
import { requireItemWithProduct, requireProduct, type RetailDb } from '../db.js';
import { codesOf } from '../../../lib/error-catalog.js';

const Warehouse = z.enum(WAREHOUSES);

export default defineTool({
  name: 'search_inventory',
  description:
    'Warehouse stock of items: whether each item is available, units on hand per warehouse and in total, and the ' +
    'next restock date. Give either item_ids or product_id (all items of that product), not both. It does not ' +
    'search the catalog by words, name or category: use search_product to find products, then this tool for ' +
    'their stock.',
  input: z.strictObject({
    item_ids: z.array(itemId).min(1).max(50).optional().describe('Item ids to report on, 1 to 50.'),
    product_id: productId.optional().describe('Report on every item of this product.'),
    warehouse: Warehouse.optional().describe(`Only this warehouse: one of ${WAREHOUSES.join(', ')}.`),
  }),
  output: z.object({
    items: z.array(
      z.object({
        item_id: z.string(),
        product_id: z.string(),
        name: z.string().describe('Product name.'),
        options: z.record(z.string(), z.string()),
        available: z.boolean().describe('Whether the item can be ordered.'),
        total_on_hand: z.number().int().describe('Units on hand in the warehouses listed.'),
        warehouses: z.array(z.object({ warehouse: Warehouse, on_hand: z.number().int() })),
        restock_date: z.string().nullable().describe('ISO 8601 date of the next delivery, null when none is planned.'),
      }),
    ),
  }),
  errors: codesOf(RETAIL_ERRORS, 'product_not_found', 'item_not_found', 'item_ids_or_product_id'),
  mutates: false,
  example: { item_ids: ['1672505665', '3234874992'] },
  run({ item_ids, product_id, warehouse }, db: RetailDb) {
    if ((item_ids === undefined) === (product_id === undefined)) {
      throw toolError(RETAIL_ERRORS.item_ids_or_product_id, 'Give exactly one of item_ids or product_id');
    }
    let entries: { product: Product; variant: Variant }[];
    if (item_ids !== undefined) {
      entries = [...new Set(item_ids)].map((id) => requireItemWithProduct(db, id));
    } else {
      const product = requireProduct(db, product_id!);
      entries = Object.values(product.variants).map((variant) => ({ product, variant }));
    }
    return {
      items: entries.map(({ product, variant }) => {
        const stock = db.inventory.get(variant.item_id);
        const stocked = (stock?.warehouses ?? []).map((w) => ({ warehouse: w.warehouse, on_hand: w.on_hand }));
        const warehouses = warehouse === undefined ? stocked : [stocked.find((w) => w.warehouse === warehouse) ?? { warehouse, on_hand: 0 }];
        return {
          item_id: variant.item_id,
          product_id: product.product_id,
          name: product.name,
          options: { ...variant.options },
          available: variant.available,
          total_on_hand: warehouses.reduce((sum, w) => sum + w.on_hand, 0),
          warehouses,
          restock_date: stock?.restock_date ?? null,
        };
      }),
    };
  },
});
