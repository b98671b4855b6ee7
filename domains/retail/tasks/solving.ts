import type { commonTools } from '../../common/index.js';
import type { Solver } from '../../task.js';
import type { Order } from '../schema.js';
import type { retailTools } from '../tools/index.js';

// The steps retail's reference solutions share: each calls the tools as a right run does.

export type RetailSolver = Solver<readonly [...typeof retailTools, ...typeof commonTools]>;

/** The customer's user id and profile, from the email they gave. */
export function authenticate(tools: RetailSolver, email: string) {
  const user_id = tools.find_user_id_by_email({ email });
  return { user_id, profile: tools.get_user_details({ user_id }) };
}

/** The customer's order holding an item of that product (lower case), read order by order. */
export function orderWith(tools: RetailSolver, email: string, product: string): Order {
  const { profile } = authenticate(tools, email);
  for (const order_id of profile.orders) {
    const order = tools.get_order_details({ order_id });
    if (order.items.some((item) => item.name.toLowerCase() === product)) return order;
  }
  throw new Error(`no order of ${email} holds a ${product}`);
}

/** The products search_product finds, every page read. */
export function searchAll(tools: RetailSolver, args: Parameters<RetailSolver['search_product']>[0]) {
  return tools.search_product({ ...args, limit: 50 }).results;
}

/** The product's id, from the catalog's list of product types. */
export const productIdOf = (tools: RetailSolver, name: string): string => (JSON.parse(tools.list_all_product_types({})) as Record<string, string>)[name]!;

/** The tracking of each package: id, carrier, carrier's status and estimate. */
export const packagesOf = (tools: RetailSolver, order_id: string) =>
  tools
    .track_order({ order_id })
    .shipments.map(({ tracking_id, carrier, status, estimated_delivery }) => ({ tracking_id, carrier, status, estimated_delivery }));
