import cancelPendingOrder from './cancel_pending_order.js';
import exchangeDeliveredOrderItems from './exchange_delivered_order_items.js';
import findUserIdByEmail from './find_user_id_by_email.js';
import findUserIdByNameZip from './find_user_id_by_name_zip.js';
import getItemDetails from './get_item_details.js';
import getOrderDetails from './get_order_details.js';
import getProductDetails from './get_product_details.js';
import getUserDetails from './get_user_details.js';
import listAllProductTypes from './list_all_product_types.js';
import modifyPendingOrderAddress from './modify_pending_order_address.js';
import modifyPendingOrderItems from './modify_pending_order_items.js';
import modifyPendingOrderPayment from './modify_pending_order_payment.js';
import modifyUserAddress from './modify_user_address.js';
import returnDeliveredOrderItems from './return_delivered_order_items.js';

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
] as const;
