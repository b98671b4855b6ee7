import { defineErrors } from '../../lib/error-catalog.js';

/** Every code a retail tool refuses with: its status and what it means. Tools raise them with toolError(). */
export const RETAIL_ERRORS = defineErrors({
  user_not_found: {
    status: 404,
    meaning: 'No user matches: check the email, or the name and zip code, or the user id (find_user_id_by_email / find_user_id_by_name_zip).',
  },
  order_not_found: { status: 404, meaning: "No order has that id: order ids start with '#W'; get_user_details and list_user_orders list a user's orders." },
  product_not_found: { status: 404, meaning: 'No product has that id: list_all_product_types and search_product give product ids.' },
  variant_not_found: { status: 404, meaning: 'The product has no item with that id: get_product_details lists its variants.' },
  item_not_found: { status: 404, meaning: "An item id given is not in the order (or not in the catalog): get_order_details lists the order's items." },
  payment_method_not_found: { status: 404, meaning: "The user has no payment method with that id: get_user_details lists the user's payment methods." },
  tracking_id_not_found: { status: 404, meaning: 'The order has no shipment with that tracking id: get_order_details lists its fulfillments.' },
  item_not_in_cart: { status: 404, meaning: 'The cart holds no line with that item id: get_cart shows what it holds.' },
  order_not_pending: { status: 409, meaning: 'Only a pending order can be cancelled or modified: check its status with get_order_details.' },
  order_not_delivered: { status: 409, meaning: 'Only a delivered order can be returned or exchanged: check its status with get_order_details.' },
  payment_history_not_single: {
    status: 409,
    meaning: 'The payment of a pending order can be changed only while it has exactly one payment: nothing to do but tell the user.',
  },
  cart_empty: { status: 409, meaning: 'Checkout needs at least one item in the cart: add_to_cart first.' },
  item_unavailable: {
    status: [409, 422],
    meaning: 'The item is out of stock: pick another available variant (get_product_details), or remove it from the cart before checkout.',
  },
  invalid_reason: { status: 422, meaning: "A cancellation's reason is 'no longer needed' or 'ordered by mistake', nothing else." },
  same_item: { status: 422, meaning: 'The new item must differ from the item it replaces: choose another variant.' },
  item_count_mismatch: { status: 422, meaning: 'item_ids and new_item_ids must have the same length: one new item for each item replaced.' },
  same_payment_method: { status: 422, meaning: 'The new payment method is the one the order already uses: choose another or change nothing.' },
  not_original_payment_method: {
    status: 422,
    meaning: "A return refunds to the order's original payment method, or to a gift card of the user: use one of those.",
  },
  insufficient_gift_card_balance: { status: 422, meaning: 'The gift card does not cover the amount due: pay with another payment method.' },
  too_many_units: { status: 422, meaning: 'A cart line holds a bounded number of units of one item (the detail says how many): ask for fewer.' },
  quantity_exceeds_cart: { status: 422, meaning: 'More units to remove than the cart line holds: remove at most the quantity get_cart shows.' },
  invalid_price_range: { status: 422, meaning: 'min_price is greater than max_price: swap or correct them.' },
  invalid_page_token: { status: 422, meaning: 'The page_token was not given by list_user_orders for this query: start again without one.' },
  item_ids_or_product_id: { status: 422, meaning: 'search_inventory takes either item_ids or product_id, exactly one of the two.' },
});
