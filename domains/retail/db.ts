import type { Tables } from '../../lib/table.js';
import { toolError } from '../errors.js';
import { RETAIL_ERRORS } from './errors.js';
import { own } from '../../lib/own.js';
import type { GiftCardMethod, Order, PaymentMethod, Product, RetailRecords, User, Variant } from './schema.js';

/** The retail database as a tool sees it. */
export type RetailDb = Tables<RetailRecords>;

// Lookups shared by the retail tools; their messages are tau2-bench's.

export function requireOrder(db: RetailDb, orderId: string): Order {
  return db.orders.get(orderId) ?? fail(toolError(RETAIL_ERRORS.order_not_found, 'Order not found'));
}

export function requireUser(db: RetailDb, userId: string): User {
  return db.users.get(userId) ?? fail(toolError(RETAIL_ERRORS.user_not_found, 'User not found'));
}

export function requireProduct(db: RetailDb, productId: string): Product {
  return db.products.get(productId) ?? fail(toolError(RETAIL_ERRORS.product_not_found, 'Product not found'));
}

/** The variant with this item id, in whichever product holds it. */
export function requireItem(db: RetailDb, itemId: string): Variant {
  return requireItemWithProduct(db, itemId).variant;
}

/** The product's variant with this item id; never a member a plain object inherits. */
export const variantOf = (product: Product, itemId: string): Variant | undefined => own(product.variants, itemId);

export function requireVariant(db: RetailDb, productId: string, itemId: string): Variant {
  return variantOf(requireProduct(db, productId), itemId) ?? fail(toolError(RETAIL_ERRORS.variant_not_found, 'Variant not found'));
}

export function requirePaymentMethod(user: User, paymentMethodId: string): PaymentMethod {
  return own(user.payment_methods, paymentMethodId) ?? fail(toolError(RETAIL_ERRORS.payment_method_not_found, 'Payment method not found'));
}

export const isGiftCard = (method: PaymentMethod): method is GiftCardMethod => method.source === 'gift_card';

/** tau2-bench's loose check: any status containing "pending" (used by address and payment changes). */
export const isPendingLoose = (order: Order): boolean => order.status.includes('pending');

/** Counts of each id in a list (the item lists may repeat an id). */
export function countIds(ids: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

/** The first id whose count in `wanted` exceeds its count in `available`, if any. */
export function firstMissing(wanted: readonly string[], available: readonly string[]): string | undefined {
  const have = countIds(available);
  const need = countIds(wanted);
  for (const id of wanted) if ((need.get(id) ?? 0) > (have.get(id) ?? 0)) return id;
  return undefined;
}

function fail(error: Error): never {
  throw error;
}

/**
 * Pairs each old item id with a distinct line of the order (the first unused line holding that id),
 * and each new item id with the variant of that line's product. Throws tau2-bench's errors.
 */
export function pairReplacements(
  db: RetailDb,
  order: Order,
  itemIds: readonly string[],
  newItemIds: readonly string[],
  options: { rejectSameId: boolean },
): { line: number; variant: Variant }[] {
  const used = new Set<number>();
  return itemIds.map((itemId, index) => {
    const newItemId = newItemIds[index]!;
    if (options.rejectSameId && itemId === newItemId) {
      throw toolError(RETAIL_ERRORS.same_item, 'The new item id should be different from the old item id');
    }
    const line = order.items.findIndex((item, i) => item.item_id === itemId && !used.has(i));
    if (line < 0) throw toolError(RETAIL_ERRORS.item_not_found, `Item ${itemId} not found`);
    used.add(line);
    const variant = requireVariant(db, order.items[line]!.product_id, newItemId);
    if (!variant.available) throw toolError(RETAIL_ERRORS.item_unavailable, `New item ${newItemId} not found or available`, { status: 422 });
    return { line, variant };
  });
}

/**
 * The price difference of replacements exactly as tau2-bench computes it: from 0, adding each pair's
 * (new price − old price) in turn, unrounded. In floats the order of the operations decides the last
 * bits (100.05 − 100 is 0.04999999999999716), and those bits are stored.
 */
export function priceDifference(order: Order, replacements: readonly { line: number; variant: Variant }[]): number {
  let difference = 0;
  for (const { line, variant } of replacements) difference += variant.price - order.items[line]!.price;
  return difference;
}

/** The product holding this item id and the item itself, if any product holds it. */
export function findItem(db: RetailDb, itemId: string): { product: Product; variant: Variant } | undefined {
  for (const product of db.products.values()) {
    const variant = variantOf(product, itemId);
    if (variant) return { product, variant };
  }
  return undefined;
}

/** Like requireItem, with the product the item belongs to. */
export function requireItemWithProduct(db: RetailDb, itemId: string): { product: Product; variant: Variant } {
  return findItem(db, itemId) ?? fail(toolError(RETAIL_ERRORS.item_not_found, 'Item not found'));
}

/** The item as the catalog has it now, looked up through its product first (fast path), else anywhere. */
export function currentVariant(db: RetailDb, productId: string, itemId: string): Variant | undefined {
  const product = db.products.get(productId);
  return (product && variantOf(product, itemId)) ?? findItem(db, itemId)?.variant;
}
