import { z } from 'zod';
import type { Convention } from '../../../hazards/kinds/adhoc_rule.js';
import { foldForMatch } from '../../../lib/text.js';
import { defineTool } from '../../tool.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { requireOrder, type RetailDb } from '../db.js';
import { RETAIL_ERRORS } from '../errors.js';
import { orderId } from '../fields.js';

// What retail's specification hazards need: the conventions its ad-hoc rules enforce, the phrases an
// ambiguous listing loses, and the deprecated twins a lookalike lists beside the maintained tools.

/** Shopify-style: APIs that take the bare order id, not the display name "#1001". */
export const orderIdWithoutHash: Convention = {
  rule: "Order ids are sent without the leading '#', e.g. W5124601.",
  accept: (value) => (/^W\d{7}$/.test(value) ? `#${value}` : null),
  message: 'order_id: invalid format',
  describe: "Order id without the leading '#', e.g. 'W4817420'.",
};

/** Stripe- and Shopify-style address APIs: ISO 3166-1 alpha-2 countries, while the profiles display 'USA'. */
export const isoCountry: Convention = {
  rule: "Countries are sent as ISO 3166-1 alpha-2 codes, e.g. 'US'.",
  accept: (value) => (value === 'US' ? 'USA' : /^[A-Z]{2}$/.test(value) ? value : null),
  message: 'country: expected ISO 3166-1 alpha-2 code',
  describe: "Country as an ISO 3166-1 alpha-2 code, e.g. 'US'.",
};

/**
 * What add_to_cart's listing says of how a quantity combines with the units already in the cart. Without it,
 * `quantity` reads as the line's new quantity: cart APIs differ (Shopify's /cart/add.js adds, /cart/change.js sets).
 */
export const cartQuantityIsAdded = ['; adding an item already in the cart raises its quantity, up to 10 units per item', 'Units to add, ', ' (default 1)'];

/** A deprecated twin of get_order_details: the order's status and items, without its address, payments or fulfillments. */
export const getOrderInfo = defineTool({
  name: 'get_order_info',
  description: 'Get information about an order by its id.',
  input: z.strictObject({ order_id: orderId }),
  output: z.looseObject({}),
  errors: codesOf(RETAIL_ERRORS, 'order_not_found'),
  mutates: false,
  run({ order_id }, db: RetailDb) {
    const order = requireOrder(db, order_id);
    return {
      order_id: order.order_id,
      user_id: order.user_id,
      status: order.status,
      items: order.items.map(({ name, item_id, price }) => ({ name, item_id, price })),
      deprecated: true,
      deprecation: 'get_order_info is deprecated and will be removed; it omits payments, fulfillments and the address. Use get_order_details.',
    };
  },
});

/** A deprecated twin of search_product: keyword only, prices across every item, available or not. */
export const searchProductsLegacy = defineTool({
  name: 'search_products_legacy',
  description: 'Search products by keyword.',
  input: z.strictObject({ keyword: z.string().describe('A word of the product name.') }),
  output: z.looseObject({}),
  errors: [],
  mutates: false,
  run({ keyword }, db: RetailDb) {
    const word = foldForMatch(keyword);
    const products = [...db.products.values()].filter((product) => foldForMatch(product.name).includes(word)).slice(0, 5);
    return {
      products: products.map((product) => ({
        id: product.product_id,
        title: product.name,
        from_price: Math.min(...Object.values(product.variants).map((v) => v.price)),
      })),
      deprecated: true,
      deprecation: 'search_products_legacy is deprecated: it ignores availability and filters. Use search_product.',
    };
  },
});
