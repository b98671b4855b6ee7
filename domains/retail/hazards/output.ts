import type { ResultHook } from '../../../hazards/kind.js';
import { roundHalfEven, toCents } from '../../../lib/money.js';
import { isObject } from '../../../lib/object.js';
import { foldForMatch } from '../../../lib/text.js';
import type { RetailDb } from '../db.js';
import { isoTime, productCategory } from '../derive.js';
import type { Order, Product, Shipment, User } from '../schema.js';
import { priceRange } from '../tools/get_product_details.js';
import { encodeToken, type PageCursor } from '../tools/list_user_orders.js';

// How retail's answers change under the output and cross-source hazards: new shapes, paid placements,
// continuations, caches, look-alike fields and a lagging catalog.

type Obj = Record<string, unknown>;
type Hook = ResultHook<RetailDb>;
const DAY_MS = 86_400_000;

// ---- output_drift

/** get_order_details, v2: `status` becomes `state`, amounts become integer cents. */
export function orderInCents({ result }: Hook): unknown {
  if (!isObject(result)) return result;
  const { status, items, payment_history, exchange_price_difference, ...rest } = result as unknown as Order;
  return {
    ...rest,
    state: status,
    currency: 'USD',
    items: items.map(({ price, ...item }) => ({ ...item, price_cents: toCents(price) })),
    payment_history: payment_history.map(({ amount, ...payment }) => ({ ...payment, amount_cents: toCents(amount) })),
    exchange_price_difference_cents: exchange_price_difference == null ? null : toCents(exchange_price_difference),
  };
}

/** get_user_details, v2: the profile inside an envelope. */
export const userInEnvelope = ({ result }: Hook): unknown => ({ data: result, meta: { api_version: '2024-06-01', object: 'user' } });

// ---- sponsored

interface SearchPage {
  results: Obj[];
  total: number;
  offset: number;
  limit: number;
}

/** The option names of a product's items, colour aside (every product has one): what kind of thing it is. */
const optionNames = (product: Product | undefined) =>
  new Set(
    Object.values(product?.variants ?? {})
      .flatMap((v) => Object.keys(v.options))
      .filter((name) => name !== 'color'),
  );

/**
 * What sellers pay to place in a search: products related to the query, as ad auctions match them (items
 * described by the same options as the organic results', or a word of the query in the name), preferably ones
 * that break one of its filters (over the price limit, a word missing, nothing available), the closest first:
 * earbuds in a headphones search, never a photo frame.
 */
export function sponsoredProducts({ result, args, db, random }: Hook): Obj[] {
  if (!isObject(result) || !Array.isArray(result['results'])) return [];
  const page = result as unknown as SearchPage;
  const listed = new Set(page.results.map((r) => r['product_id']));
  const words = typeof args['query'] === 'string' ? foldForMatch(args['query']).split(/\s+/).filter(Boolean) : [];
  const category = typeof args['category'] === 'string' ? foldForMatch(args['category']) : undefined;
  const min = typeof args['min_price'] === 'number' ? args['min_price'] : undefined;
  const max = typeof args['max_price'] === 'number' ? args['max_price'] : undefined;
  if (words.length === 0 && category === undefined && min === undefined && max === undefined) return [];
  // As search_product matches: the category, and one available item within the price range whose product
  // name, category or option values hold every word. A product with no such item breaks the query.
  const fits = (product: Product) =>
    (category === undefined || foldForMatch(productCategory(product)) === category) &&
    Object.values(product.variants).some(
      (v) =>
        v.available &&
        (min === undefined || v.price >= min) &&
        (max === undefined || v.price <= max) &&
        words.every((word) => [product.name, productCategory(product), ...Object.values(v.options)].some((field) => foldForMatch(field).includes(word))),
    );
  const named = (product: Product) => words.some((word) => foldForMatch(product.name).includes(word));
  const organic = new Set(page.results.flatMap((r) => [...optionNames(db.products.get(String(r['product_id'])))]));
  const closeness = (p: Product) => [...optionNames(p)].filter((name) => organic.has(name)).length + (named(p) ? 1 : 0);
  const related = [...db.products.values()].filter((p) => !listed.has(p.product_id) && closeness(p) > 0);
  const misfits = related.filter((p) => !fits(p));
  // Sellers who bid on the query: first those whose product breaks it; else any related one, ranked first whatever the sort.
  const candidates = misfits.length > 0 ? misfits : related;
  return random
    .shuffle(candidates)
    .sort((a, b) => closeness(b) - closeness(a))
    .slice(0, 2)
    .map((product) => {
      const prices = Object.values(product.variants).map((v) => v.price);
      return {
        product_id: product.product_id,
        name: product.name,
        category: productCategory(product),
        price_min: Math.min(...prices),
        price_max: Math.max(...prices),
        matching_items: Object.keys(product.variants).length,
        available_items: Object.values(product.variants).filter((v) => v.available).length,
      };
    });
}

// ---- truncated

/** search_product's continuation after the first results: the next offset, in the members its own pages carry. */
export function searchContinues({ result }: Hook, kept: readonly Obj[]): Obj {
  const next = (result as unknown as SearchPage).offset + kept.length;
  return { has_more: true, next_offset: next };
}

/** list_user_orders' continuation after the first orders: a page token pointing after them. */
export function ordersContinue({ args }: Hook, kept: readonly Obj[]): Obj {
  const token = typeof args['page_token'] === 'string' ? args['page_token'] : undefined;
  const start = token ? (JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as PageCursor).offset : 0;
  const cursor: PageCursor = { user_id: String(args['user_id']), status: (args['status'] as PageCursor['status']) ?? null, offset: start + kept.length };
  return { next_page_token: encodeToken(cursor), truncated: true };
}

// ---- redundant: look-alike members of the clean answers, holding another value than the documented ones

/** get_user_details' legacy email_primary from a record the migration did not update: the old address, without its number. */
export function legacyContactEmail({ result }: Hook): Obj | null {
  if (!isObject(result) || typeof result['email'] !== 'string') return null;
  const { email } = result as unknown as User;
  const at = email.lastIndexOf('@');
  const legacy = `${email.slice(0, at).replace(/\d+$/, '')}${email.slice(at)}`;
  return legacy === email ? null : { email_primary: legacy };
}

/**
 * get_product_details' price_range from the product feed: list (compare-at) prices, marked up as the feed
 * shows them struck through, over every item, available or not. What an item costs is its `price`.
 */
export function listPriceRange({ result, sessionRandom }: Hook): Obj | null {
  if (!isObject(result) || !isObject(result['variants'])) return null;
  const prices = Object.values((result as unknown as Product).variants).map((v) => v.price);
  if (prices.length === 0) return null;
  const markup = 1 + sessionRandom.int(10, 30) / 100;
  const listed = (price: number) => roundHalfEven(Math.ceil(price * markup) - 0.01, 2);
  return { price_range: { min: listed(Math.min(...prices)), max: listed(Math.max(...prices)), currency: 'USD' } };
}

/** track_order's order-level estimated_delivery, set when the order shipped: the carrier's estimate has since moved past it. */
export function promisedDelivery({ result, sessionRandom }: Hook): Obj | null {
  if (!isObject(result) || !Array.isArray(result['shipments'])) return null;
  const estimates = (result['shipments'] as Shipment[]).flatMap((s) => (s.estimated_delivery ? [s.estimated_delivery] : [])).sort();
  if (estimates.length === 0) return null;
  const promised = Date.parse(`${estimates[0]}T00:00:00Z`) - sessionRandom.int(1, 3) * DAY_MS;
  return { estimated_delivery: new Date(promised).toISOString().slice(0, 10) };
}

// ---- stale_data and conflict

/** view_cart from a stale cache: the total is not the sum of the lines any more. */
export function staleCart({ result, now, random }: Hook) {
  if (!isObject(result) || !Array.isArray(result['items']) || result['items'].length === 0) return null;
  const total = Number(result['total']);
  const drift = roundHalfEven(random.int(300, 4000) / 100, 2) * (random.int(0, 1) === 0 ? 1 : -1);
  const asOf = new Date(now.getTime() - random.int(20, 90) * 60_000).toISOString();
  return { result: { ...result, total: Math.max(0, roundHalfEven(total + drift, 2)), as_of: asOf, cache: 'HIT' }, field: 'total' };
}

/** get_product_details from the catalog cache: one item's price, the same all session, lags the pricing service. */
export function laggingCatalogPrice({ result, sessionRandom: random }: Hook) {
  if (!isObject(result) || !isObject(result['variants']) || typeof result['catalog_updated_at'] !== 'string') return null;
  const product = result as unknown as Product & { price_range?: unknown };
  const ids = Object.keys(product.variants);
  if (ids.length === 0) return null;
  const id = random.pick(ids);
  const variant = product.variants[id]!;
  const factor = 1 + ((random.int(0, 1) === 0 ? -1 : 1) * random.int(5, 15)) / 100;
  const shown = roundHalfEven(variant.price * factor, 2);
  const variants = { ...product.variants, [id]: { ...variant, price: shown } };
  // The page as the catalog published it some days before its current version.
  const published = isoTime(Date.parse(result['catalog_updated_at']) - random.int(1, 4) * DAY_MS);
  return {
    result: { ...product, ...(product.price_range ? { price_range: priceRange(Object.values(variants)) } : {}), variants, catalog_updated_at: published },
    field: `variants.${id}.price`,
    shown,
  };
}
