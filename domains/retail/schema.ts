import { z } from 'zod';

// The retail data model of tau2-bench (products, users, orders), plus the tables our
// extra tools need (carts, tracking, inventory). Optional extras keep tau2 files loadable.

export const Address = z.object({
  address1: z.string(),
  address2: z.string(),
  city: z.string(),
  country: z.string(),
  state: z.string(),
  zip: z.string(),
});

export const Variant = z.object({
  item_id: z.string(),
  options: z.record(z.string(), z.string()),
  available: z.boolean(),
  price: z.number(),
});

export const Product = z.object({
  name: z.string(),
  product_id: z.string(),
  /** Not in tau2-bench: search by category. A file may set it; else it is derived from the name (productCategory). */
  category: z.string().optional(),
  variants: z.record(z.string(), Variant),
});

/** A product as tau2-bench has it (and get_product_details answers): without our category. */
export const ProductDetails = Product.omit({ category: true });

export const CreditCard = z.object({
  source: z.literal('credit_card'),
  id: z.string(),
  brand: z.string(),
  last_four: z.string(),
});
export const Paypal = z.object({ source: z.literal('paypal'), id: z.string() });
export const GiftCard = z.object({ source: z.literal('gift_card'), id: z.string(), balance: z.number() });
export const PaymentMethod = z.discriminatedUnion('source', [CreditCard, Paypal, GiftCard]);

export const User = z.object({
  user_id: z.string(),
  name: z.object({ first_name: z.string(), last_name: z.string() }),
  address: Address,
  email: z.string(),
  payment_methods: z.record(z.string(), PaymentMethod),
  orders: z.array(z.string()),
});

export const OrderItem = z.object({
  name: z.string(),
  product_id: z.string(),
  item_id: z.string(),
  price: z.number(),
  options: z.record(z.string(), z.string()),
});

export const ORDER_STATUSES = ['processed', 'pending', 'pending (item modified)', 'delivered', 'cancelled', 'exchange requested', 'return requested'] as const;
export const OrderStatus = z.enum(ORDER_STATUSES);

export const Fulfillment = z.object({ tracking_id: z.array(z.string()), item_ids: z.array(z.string()) });
export const OrderPayment = z.object({
  transaction_type: z.enum(['payment', 'refund']),
  amount: z.number(),
  payment_method_id: z.string(),
});

export const CANCEL_REASONS = ['no longer needed', 'ordered by mistake'] as const;

export const Order = z.object({
  order_id: z.string(),
  user_id: z.string(),
  address: Address,
  items: z.array(OrderItem),
  status: OrderStatus,
  fulfillments: z.array(Fulfillment),
  payment_history: z.array(OrderPayment),
  // Optional in tau2-bench's model, which dumps them as null: absent from a file, they are null here too.
  cancel_reason: z.enum(CANCEL_REASONS).nullable().default(null),
  exchange_items: z.array(z.string()).nullable().default(null),
  exchange_new_items: z.array(z.string()).nullable().default(null),
  exchange_payment_method_id: z.string().nullable().default(null),
  exchange_price_difference: z.number().nullable().default(null),
  return_items: z.array(z.string()).nullable().default(null),
  return_payment_method_id: z.string().nullable().default(null),
});

/** The optional order fields, as tau2-bench dumps them for an order that has none of them. */
export const NO_ORDER_EXTRAS = {
  cancel_reason: null,
  exchange_items: null,
  exchange_new_items: null,
  exchange_payment_method_id: null,
  exchange_price_difference: null,
  return_items: null,
  return_payment_method_id: null,
} as const;

export const CartLine = z.object({
  item_id: z.string(),
  product_id: z.string(),
  name: z.string(),
  options: z.record(z.string(), z.string()),
  unit_price: z.number(),
  quantity: z.number().int().positive(),
});
export const Cart = z.object({ user_id: z.string(), items: z.array(CartLine) });

export const CARRIERS = ['UPS', 'FedEx', 'USPS', 'DHL', 'SwiftShip'] as const;
export const TRACKING_STATUSES = ['label_created', 'in_transit', 'out_for_delivery', 'delivered', 'exception'] as const;
export const TrackingEvent = z.object({
  at: z.string().describe('ISO 8601 timestamp'),
  location: z.string(),
  status: z.enum(TRACKING_STATUSES),
  description: z.string(),
});
export const Shipment = z.object({
  tracking_id: z.string(),
  order_id: z.string(),
  carrier: z.enum(CARRIERS),
  service: z.string(),
  status: z.enum(TRACKING_STATUSES),
  estimated_delivery: z.string().nullable().describe('ISO 8601 date, null once delivered'),
  events: z.array(TrackingEvent),
});

export const WAREHOUSES = ['RNO1', 'ATL2', 'CMH1', 'DFW3', 'EWR4'] as const;
export const StockLevel = z.object({
  item_id: z.string(),
  product_id: z.string(),
  warehouses: z.array(z.object({ warehouse: z.enum(WAREHOUSES), on_hand: z.number().int().nonnegative() })),
  restock_date: z.string().nullable().describe('ISO 8601 date of the next delivery, null when none is planned'),
});

export const RetailDatabase = z.object({
  products: z.record(z.string(), Product),
  users: z.record(z.string(), User),
  orders: z.record(z.string(), Order),
  carts: z.record(z.string(), Cart).default({}),
  tracking: z.record(z.string(), Shipment).default({}),
  inventory: z.record(z.string(), StockLevel).default({}),
});

export type Address = z.infer<typeof Address>;
export type Variant = z.infer<typeof Variant>;
export type Product = z.infer<typeof Product>;
export type PaymentMethod = z.infer<typeof PaymentMethod>;
export type GiftCardMethod = z.infer<typeof GiftCard>;
export type User = z.infer<typeof User>;
export type Order = z.infer<typeof Order>;
export type OrderItem = z.infer<typeof OrderItem>;
export type Cart = z.infer<typeof Cart>;
export type CartLine = z.infer<typeof CartLine>;
export type Shipment = z.infer<typeof Shipment>;
export type StockLevel = z.infer<typeof StockLevel>;
export type RetailDatabase = z.infer<typeof RetailDatabase>;

/** The record type of each table, as tools see it. */
export interface RetailRecords extends Record<string, unknown> {
  products: Product;
  users: User;
  orders: Order;
  carts: Cart;
  tracking: Shipment;
  inventory: StockLevel;
}
