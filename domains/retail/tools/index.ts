import type { commonTools } from '../../common/index.js';
import addToCart from './add_to_cart.js';
import cancelPendingOrder from './cancel_pending_order.js';
import checkout from './checkout.js';
import exchangeDeliveredOrderItems from './exchange_delivered_order_items.js';
import findUserIdByEmail from './find_user_id_by_email.js';
import findUserIdByNameZip from './find_user_id_by_name_zip.js';
import getItemDetails from './get_item_details.js';
import getOrderDetails from './get_order_details.js';
import getProductDetails from './get_product_details.js';
import getUserDetails from './get_user_details.js';
import listAllProductTypes from './list_all_product_types.js';
import listUserOrders from './list_user_orders.js';
import modifyPendingOrderAddress from './modify_pending_order_address.js';
import modifyPendingOrderItems from './modify_pending_order_items.js';
import modifyPendingOrderPayment from './modify_pending_order_payment.js';
import modifyUserAddress from './modify_user_address.js';
import removeFromCart from './remove_from_cart.js';
import returnDeliveredOrderItems from './return_delivered_order_items.js';
import searchInventory from './search_inventory.js';
import searchProduct from './search_product.js';
import trackOrder from './track_order.js';
import viewCart from './view_cart.js';

/** The retail tools, in listing order: tau2-bench's first, then ours. */
export const retailTools = [
  findUserIdByEmail,
  findUserIdByNameZip,
  getUserDetails,
  getOrderDetails,
  getProductDetails,
  getItemDetails,
  listAllProductTypes,
  cancelPendingOrder,
  modifyPendingOrderAddress,
  modifyPendingOrderItems,
  modifyPendingOrderPayment,
  modifyUserAddress,
  returnDeliveredOrderItems,
  exchangeDeliveredOrderItems,
  searchProduct,
  searchInventory,
  listUserOrders,
  trackOrder,
  addToCart,
  viewCart,
  removeFromCart,
  checkout,
] as const;

/** The name of any tool the retail domain lists (its own and the shared ones). */
export type RetailToolName = (typeof retailTools)[number]['name'] | (typeof commonTools)[number]['name'];
