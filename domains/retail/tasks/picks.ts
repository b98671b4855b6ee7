import type { Random } from '../../../lib/random.js';
import { foldForMatch } from '../../../lib/text.js';
import { NoInstance } from '../../task.js';
import type { RetailDb } from '../db.js';
import { productCategory } from '../derive.js';
import type { Address, Order, PaymentMethod, Product, User, Variant } from '../schema.js';

// What retail's templates pick their instances with: customers, the orders they name by an item, the cards
// they name by brand and last digits, addresses to move to, and the words they search the catalog with.
// Every pick is made among all the candidates of the seed's world, never a fixed record.

/** How the request names the customer: their name and the email they authenticate with. */
export interface Customer {
  name: string;
  email: string;
}

export const customerOf = (user: User): Customer => ({ name: `${user.name.first_name} ${user.name.last_name}`, email: user.email });

/** The orders of a customer, in their profile's order. */
export const ordersOf = (db: RetailDb, user: User): Order[] => user.orders.flatMap((id) => db.orders.get(id) ?? []);

/** The trackings ids of an order's packages. */
export const trackingIdsOf = (order: Order): string[] => order.fulfillments.flatMap((fulfillment) => fulfillment.tracking_id);

/** The names (lower case) of the items of an order that no other order of its customer holds: each names the order. */
export function namingItems(db: RetailDb, order: Order): string[] {
  const user = db.users.get(order.user_id);
  if (!user) return [];
  const others = ordersOf(db, user).filter((other) => other.order_id !== order.order_id);
  const names = [...new Set(order.items.map((item) => item.name))];
  return names.filter((name) => !others.some((other) => other.items.some((item) => item.name === name))).map((name) => name.toLowerCase());
}

/** An order the customer names by an item. */
export interface NamedOrder {
  order: Order;
  user: User;
  /** The item's product name, lower case, as the customer says it. */
  product: string;
}

/** Among every order that fits, one that an item names, with that item; NoInstance when there is none. */
export function pickOrder(db: RetailDb, random: Random, what: string, fits: (order: Order, user: User) => boolean): NamedOrder {
  const candidates = [...db.orders.values()].filter((order) => {
    const user = db.users.get(order.user_id);
    return user !== undefined && fits(order, user) && namingItems(db, order).length > 0;
  });
  if (candidates.length === 0) throw new NoInstance(`no ${what} named by one of its items`);
  const order = random.pick(candidates);
  return { order, user: db.users.get(order.user_id)!, product: random.pick(namingItems(db, order)) };
}

export const isPending = (order: Order) => order.status === 'pending' || order.status === 'pending (item modified)';

const BRANDS: Record<string, string> = { visa: 'Visa card', amex: 'American Express card', mastercard: 'Mastercard', discover: 'Discover card' };

/** How a customer names one of their payment methods: "my Visa card ending 1234", "my gift card", "my PayPal account". */
export function methodWords(method: PaymentMethod): string {
  if (method.source === 'credit_card') return `my ${BRANDS[method.brand.toLowerCase()] ?? `${method.brand} card`} ending in ${method.last_four}`;
  return method.source === 'gift_card' ? 'my gift card' : 'my PayPal account';
}

/** Methods of a customer that their words name unambiguously (a customer with two gift cards cannot say "my gift card"). */
export function nameableMethods(user: User): PaymentMethod[] {
  const methods = Object.values(user.payment_methods);
  return methods.filter((method) => methods.filter((other) => methodWords(other) === methodWords(method)).length === 1);
}

const STREETS = [
  'Elm Street',
  'Oak Avenue',
  'Birch Road',
  'Maple Drive',
  'Cedar Lane',
  'Willow Way',
  'Pine Court',
  'Aspen Place',
  'Chestnut Street',
  'Juniper Road',
];
const CITIES: readonly (readonly [city: string, state: string, zip: string])[] = [
  ['Springfield', 'IL', '627'],
  ['Columbus', 'OH', '432'],
  ['St. Louis', 'MO', '631'],
  ['Madison', 'WI', '537'],
  ['Boise', 'ID', '837'],
  ['Richmond', 'VA', '232'],
  ['Tucson', 'AZ', '857'],
  ['Raleigh', 'NC', '276'],
  ['Omaha', 'NE', '681'],
  ['Albany', 'NY', '122'],
];

/** An address in the USA to move to, as the customer gives it (country 'USA', as the profiles write it). */
export function newAddress(random: Random): Address {
  const [city, state, zip] = random.pick(CITIES);
  return {
    address1: `${random.int(2, 998)} ${random.pick(STREETS)}`,
    address2: random.bool(0.4) ? `Apt ${random.int(1, 40)}` : '',
    city,
    country: 'USA',
    state,
    zip: `${zip}${random.digits(2)}`,
  };
}

/** An address in the customer's words. */
export const addressWords = (a: Address) => `${a.address1}${a.address2 ? `, ${a.address2}` : ''}, ${a.city}, ${a.state} ${a.zip}, ${a.country}`;

/** An item's options in words: "white, 6-piece, turkish cotton". */
export const optionWords = (options: Record<string, string>) => Object.values(options).join(', ');

// ---- the catalog

const available = (product: Product): Variant[] => Object.values(product.variants).filter((variant) => variant.available);

/** The word's plural, for a request ("hubs", "headphones", "boxes"). */
export const plural = (word: string) => (/(s|x|ch|sh)$/.test(word) ? (word.endsWith('s') ? word : `${word}es`) : `${word}s`);

/**
 * The last words of product names ("hub", "blender") that search_product matches by the name alone: no
 * category and no option value of any product holds them unless its name does. Searching one finds exactly
 * the products whose name holds it, each with all its items, as the catalog read by name does (the way
 * round a search that is down).
 */
export function nameWords(db: RetailDb): string[] {
  const products = [...db.products.values()];
  const words = new Set(products.map((product) => foldForMatch(product.name).split(/\s+/).at(-1)!).filter((word) => /^[a-z]{3,}$/.test(word)));
  return [...words]
    .filter((word) =>
      products.every(
        (product) =>
          foldForMatch(product.name).includes(word) ||
          (!foldForMatch(productCategory(product)).includes(word) &&
            Object.values(product.variants).every((variant) => Object.values(variant.options).every((value) => !foldForMatch(value).includes(word)))),
      ),
    )
    .sort();
}

/** The products whose name holds the word, with the items that can be ordered. */
export const namedProducts = (db: RetailDb, word: string) =>
  [...db.products.values()].filter((product) => foldForMatch(product.name).includes(word)).map((product) => ({ product, items: available(product) }));

/**
 * Colours ("black", "navy") that search_product matches only in colour options: no product name or category
 * and no other option holds them. The products "in black" are those with an item whose colour says it.
 */
export function colourWords(db: RetailDb): string[] {
  const products = [...db.products.values()];
  const colours = new Set<string>();
  for (const product of products)
    for (const variant of Object.values(product.variants))
      for (const [key, value] of Object.entries(variant.options)) if (/colou?r/.test(key) && /^[a-z]{3,}$/.test(value)) colours.add(value);
  return [...colours]
    .filter((word) =>
      products.every(
        (product) =>
          !foldForMatch(product.name).includes(word) &&
          !foldForMatch(productCategory(product)).includes(word) &&
          Object.values(product.variants).every((variant) =>
            Object.entries(variant.options).every(([key, value]) => /colou?r/.test(key) || !foldForMatch(value).includes(word)),
          ),
      ),
    )
    .sort();
}

/** The items of a product that can be ordered and whose options hold the word. */
export const itemsIn = (product: Product, word: string) =>
  available(product).filter((variant) => Object.values(variant.options).some((value) => foldForMatch(value).includes(word)));

/** The lowest and highest of some prices. */
export const rangeOf = (prices: readonly number[]) => ({ min: Math.min(...prices), max: Math.max(...prices) });

/** A product's items that can be ordered. */
export const availableItems = available;
