import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { RETAIL_ERRORS } from '../errors.js';
import { sumMoney } from '../../../lib/money.js';
import { pageSize, userId } from '../fields.js';
import { OrderStatus, type Order } from '../schema.js';
import { requireUser, type RetailDb } from '../db.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { isObject } from '../../../lib/object.js';

type Status = z.infer<typeof OrderStatus>;

/** What a page token carries: the listing it belongs to, and where the next page starts. */
export interface PageCursor {
  user_id: string;
  status: Status | null;
  offset: number;
}

export const encodeToken = (cursor: PageCursor): string => Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');

/** The offset a token points at, when it was issued for this very listing; throws 422 otherwise. */
function offsetOf(token: string, user_id: string, status: Status | null): number {
  const invalid = () => toolError(RETAIL_ERRORS.invalid_page_token, 'Invalid page_token');
  if (!/^[A-Za-z0-9_-]+$/.test(token)) throw invalid();
  let cursor: unknown;
  try {
    cursor = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!isObject(cursor)) throw invalid();
  const { user_id: owner, status: listed, offset, ...rest } = cursor as Record<string, unknown>;
  if (owner !== user_id || listed !== status || Object.keys(rest).length > 0) throw invalid();
  if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0) throw invalid();
  return offset;
}

export default defineTool({
  name: 'list_user_orders',
  description:
    "A customer's orders, a page at a time, in the order of their profile: id, status, number of items and total " +
    'for each. Optionally only the orders with one status. When next_page_token is not null, call again with the ' +
    "same user_id and status and that token to get the next page. Use get_order_details for an order's full content.",
  input: z.strictObject({
    user_id: userId,
    status: OrderStatus.optional().describe('Only orders with exactly this status.'),
    page_size: pageSize.default(10).describe('Orders per page, 1 to 50 (default 10).'),
    page_token: z.string().optional().describe('next_page_token of the previous page, unchanged; omit it for the first page.'),
  }),
  output: z.object({
    orders: z.array(
      z.object({
        order_id: z.string(),
        status: OrderStatus,
        item_count: z.number().int().describe('Number of units in the order.'),
        total: z.number().describe('Sum of the item prices.'),
      }),
    ),
    next_page_token: z.string().nullable().describe('Token for the next page; null on the last page.'),
    total_count: z.number().int().describe('Number of orders matching, over all pages.'),
    truncated: z.boolean().describe('True when the page holds fewer orders than it could because the answer was cut short; follow next_page_token.'),
  }),
  errors: codesOf(RETAIL_ERRORS, 'user_not_found', 'invalid_page_token'),
  mutates: false,
  example: { user_id: 'carlos_lee_2748' },
  run({ user_id, status, page_size, page_token }, db: RetailDb) {
    const user = requireUser(db, user_id);
    const listed = status ?? null;
    const offset = page_token === undefined ? 0 : offsetOf(page_token, user_id, listed);
    const orders = user.orders
      .map((id) => db.orders.get(id))
      .filter((order): order is Order => order !== undefined && (listed === null || order.status === listed));
    const end = offset + page_size;
    return {
      orders: orders.slice(offset, end).map((order) => ({
        order_id: order.order_id,
        status: order.status,
        item_count: order.items.length,
        total: sumMoney(order.items.map((item) => item.price)),
      })),
      next_page_token: end < orders.length ? encodeToken({ user_id, status: listed, offset: end }) : null,
      total_count: orders.length,
      truncated: false,
    };
  },
});
