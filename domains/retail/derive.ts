import { PRODUCT_TYPES } from '../../fixtures/generator/retail-catalog.js';
import { hasOwn } from '../../lib/own.js';
import { Random } from '../../lib/random.js';
import { CARRIERS, WAREHOUSES, type Order, type Product, type RetailDatabase, type Shipment, type StockLevel } from './schema.js';

// Fills the tables our extra tools need (tracking, inventory) from a file's own content, so a
// tau2-bench db.json works as well as our generated fixture. tau2-bench's own tables are left as
// they are, so that their state can be compared with tau2-bench's; categories are derived when read.

/** Seed of the derivations for files that come without our extra tables. */
export const DERIVATION_SEED = 'wildtools-retail';

/** The world's "now": 2024-05-15T15:00:00-05:00. Every tracking event happens before it. */
export const RETAIL_NOW = Date.parse('2024-05-15T20:00:00Z');

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Carrier = (typeof CARRIERS)[number];
type TrackingStatus = Shipment['status'];
type TrackingEvent = Shipment['events'][number];
type Warehouse = (typeof WAREHOUSES)[number];

const CATEGORY_BY_NAME = new Map(PRODUCT_TYPES.map((type) => [type.name.toLowerCase(), type.category]));

// First match wins: "smart watch" must be tried before apparel's "watch".
const CATEGORY_KEYWORDS: readonly (readonly [RegExp, string])[] = [
  [/\b(kettle|coffee|espresso|blender|toaster|knife|skillet|pan|pot|mixer|cookware|grinder|mug)\b/, 'kitchen'],
  [/\b(camera|phone|smartphone|tablet|laptop|speaker|headphones?|earbuds?|charger|keyboard|mouse|monitor)\b/, 'electronics'],
  [/\b(e-reader|thermostat|smart ?watch|tv|router|drone|console)\b/, 'electronics'],
  [/\b(yoga|dumbbells?|kettlebell|treadmill|bicycle|cycling|skateboard|fitness|exercise|running)\b/, 'fitness'],
  [/\b(tent|hiking|camping|garden|patio|grill|hammock|backpack|umbrella|bottle|flask|tumbler|hose)\b/, 'outdoor'],
  [/\b(t-shirt|shirt|jacket|shoes|boots|sneakers|hoodie|jeans|socks|hat|cap|gloves|sunglasses|wristwatch|watch|dress)\b/, 'apparel'],
  [/\b(chair|desk|notebook|pen|office|printer|organizer)\b/, 'office'],
  [/\b(puzzle|toy|doll|game|plush|blocks)\b/, 'toys'],
  [/\b(perfume|makeup|toothbrush|shampoo|lotion|razor)\b/, 'beauty'],
  [/\b(luggage|suitcase)\b/, 'travel'],
  [/\b(vacuum|purifier|bed|blanket|towel|candle|clock|basket|bookshelf|pillow|rug|lamp|humidifier)\b/, 'home'],
];

/** The category of a product: our catalog's when we know the name, else a guess from keywords. */
export function categoryOf(productName: string): string {
  const name = productName.toLowerCase();
  const known = CATEGORY_BY_NAME.get(name);
  if (known !== undefined) return known;
  for (const [pattern, category] of CATEGORY_KEYWORDS) if (pattern.test(name)) return category;
  return 'General';
}

/** A product's category: its own when the file sets one (our fixture does), else derived from its name. */
export const productCategory = (product: Product): string => product.category ?? categoryOf(product.name);

const SERVICES: Readonly<Record<Carrier, readonly string[]>> = {
  UPS: ['UPS Ground', 'UPS 2nd Day Air', 'UPS Next Day Air Saver'],
  FedEx: ['FedEx Ground', 'FedEx Home Delivery', 'FedEx 2Day'],
  USPS: ['USPS Ground Advantage', 'USPS Priority Mail', 'USPS Priority Mail Express'],
  DHL: ['DHL eCommerce Ground', 'DHL eCommerce Expedited'],
  SwiftShip: ['SwiftShip Standard', 'SwiftShip Express'],
};

const WAREHOUSE_CITIES: Readonly<Record<Warehouse, string>> = {
  RNO1: 'Reno, NV',
  ATL2: 'Atlanta, GA',
  CMH1: 'Columbus, OH',
  DFW3: 'Dallas, TX',
  EWR4: 'Newark, NJ',
};

const HUBS: readonly string[] = [
  'Louisville, KY',
  'Memphis, TN',
  'Indianapolis, IN',
  'Ontario, CA',
  'Fort Worth, TX',
  'Chicago, IL',
  'Kansas City, MO',
  'Salt Lake City, UT',
  'Harrisburg, PA',
  'Jacksonville, FL',
  'Phoenix, AZ',
  'Sacramento, CA',
];

const EXCEPTIONS: readonly string[] = [
  'Delivery exception: severe weather in the area',
  'Delivery exception: address could not be verified',
  'Delivery exception: package damaged, held for inspection',
  'Delivery exception: recipient not available, second attempt scheduled',
];

const DELIVERY_SPOTS: readonly string[] = ['front door', 'mailroom', 'back porch', 'parcel locker', 'recipient'];

/** A time as tracking events and catalog pages write it: ISO 8601 in UTC, to the second. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function trackingStatusFor(rng: Random, orderStatus: Order['status']): TrackingStatus {
  switch (orderStatus) {
    case 'delivered':
    case 'exchange requested':
    case 'return requested':
      return 'delivered';
    case 'processed':
      return rng.weighted<TrackingStatus>([
        ['label_created', 30],
        ['in_transit', 45],
        ['out_for_delivery', 20],
        ['exception', 5],
      ]);
    default:
      // A pending or cancelled order that somehow has a tracking id: nothing has shipped.
      return 'label_created';
  }
}

type Step = Omit<TrackingEvent, 'at'>;

/** The events of a shipment in chronological order, without their times. */
function steps(rng: Random, status: TrackingStatus, carrier: Carrier, origin: string, destination: string): Step[] {
  const label: Step = { location: origin, status: 'label_created', description: 'Shipping label created' };
  if (status === 'label_created') {
    return [label, { location: origin, status: 'label_created', description: `Awaiting pickup by ${carrier}` }];
  }
  const hops = status === 'in_transit' ? rng.int(1, 4) : status === 'exception' ? rng.int(1, 2) : rng.int(1, 3);
  const transit: Step[] = [{ location: origin, status: 'in_transit', description: `Picked up by ${carrier}` }];
  const hubs = rng.sample(HUBS, hops);
  for (let i = 1; i < hops; i++) {
    const last = i === hops - 1 && hops >= 3;
    transit.push(
      last
        ? { location: destination, status: 'in_transit', description: 'Arrived at local delivery facility' }
        : {
            location: hubs[i] as string,
            status: 'in_transit',
            description: rng.pick(['Arrived at sort facility', 'Departed sort facility', 'In transit to next facility']),
          },
    );
  }
  const outForDelivery: Step = { location: destination, status: 'out_for_delivery', description: 'Out for delivery' };
  switch (status) {
    case 'in_transit':
      return [label, ...transit];
    case 'out_for_delivery':
      return [label, ...transit, outForDelivery];
    case 'exception':
      return [label, ...transit, { location: rng.pick([destination, hubs[0] as string]), status: 'exception', description: rng.pick(EXCEPTIONS) }];
    default:
      return [label, ...transit, outForDelivery, { location: destination, status: 'delivered', description: `Delivered to ${rng.pick(DELIVERY_SPOTS)}` }];
  }
}

function deriveShipment(trackingId: string, order: Order, seed: string): Shipment {
  const rng = new Random(`${seed}:shipment:${trackingId}`);
  const carrier = rng.pick(CARRIERS);
  const service = rng.pick(SERVICES[carrier]);
  const status = trackingStatusFor(rng, order.status);
  const origin = WAREHOUSE_CITIES[rng.pick(WAREHOUSES)];
  const destination = `${order.address.city}, ${order.address.state}`;
  const plan = steps(rng, status, carrier, origin, destination);

  // Times are laid out backwards from the last event, in whole minutes.
  const lastAt = status === 'delivered' ? RETAIL_NOW - rng.int(3, 40 * 24) * HOUR : RETAIL_NOW - rng.int(1, 60) * HOUR;
  const times: number[] = [lastAt - rng.int(0, 59) * 60_000];
  for (let i = plan.length - 1; i > 0; i--) {
    const gapMinutes = plan[i]?.status === 'delivered' ? rng.int(30, 8 * 60) : rng.int(60, 30 * 60);
    times.unshift((times[0] as number) - gapMinutes * 60_000);
  }
  const events = plan.map((step, i) => ({ at: isoTime(times[i] as number), ...step }));

  const estimated_delivery =
    status === 'delivered'
      ? null
      : status === 'out_for_delivery'
        ? isoDate(RETAIL_NOW)
        : isoDate(RETAIL_NOW + rng.int(1, status === 'exception' ? 7 : 5) * DAY);
  return { tracking_id: trackingId, order_id: order.order_id, carrier, service, status, estimated_delivery, events };
}

/** One shipment per tracking id of the orders' fulfillments, each decided by (seed, tracking id). */
export function deriveShipments(orders: Record<string, Order>, seed: string): Record<string, Shipment> {
  const shipments: Record<string, Shipment> = {};
  for (const order of Object.values(orders)) {
    for (const fulfillment of order.fulfillments) {
      for (const trackingId of fulfillment.tracking_id) {
        if (!hasOwn(shipments, trackingId)) shipments[trackingId] = deriveShipment(trackingId, order, seed);
      }
    }
  }
  return shipments;
}

function deriveStockLevel(product: Product, itemId: string, available: boolean, seed: string): StockLevel {
  const rng = new Random(`${seed}:inventory:${itemId}`);
  const chosen = new Set(rng.sample(WAREHOUSES, rng.int(1, WAREHOUSES.length)));
  const warehouses = WAREHOUSES.filter((w) => chosen.has(w)).map((warehouse) => ({
    warehouse,
    on_hand: available ? rng.int(0, 80) : 0,
  }));
  const first = warehouses[0] as { on_hand: number };
  if (available && warehouses.every((w) => w.on_hand === 0)) first.on_hand = rng.int(1, 25);
  const total = warehouses.reduce((sum, w) => sum + w.on_hand, 0);
  const restocks = available ? total < 10 && rng.bool(0.5) : rng.bool(0.8);
  return {
    item_id: itemId,
    product_id: product.product_id,
    warehouses,
    restock_date: restocks ? isoDate(RETAIL_NOW + rng.int(3, 90) * DAY) : null,
  };
}

/** One stock level per variant: available variants have stock somewhere, unavailable ones none. */
export function deriveInventory(products: Record<string, Product>, seed: string): Record<string, StockLevel> {
  const inventory: Record<string, StockLevel> = {};
  for (const product of Object.values(products)) {
    for (const variant of Object.values(product.variants)) {
      inventory[variant.item_id] = deriveStockLevel(product, variant.item_id, variant.available, seed);
    }
  }
  return inventory;
}

/**
 * A complete copy of a database: a shipment for every tracking id, inventory when the table is empty.
 * Existing records are kept, and tau2-bench's tables are not changed; the input is not changed.
 */
export function completeRetail(file: RetailDatabase): RetailDatabase {
  const db = structuredClone(file);
  const tracking = { ...db.tracking };
  for (const [id, shipment] of Object.entries(deriveShipments(db.orders, DERIVATION_SEED))) {
    if (!hasOwn(tracking, id)) tracking[id] = shipment;
  }
  const inventory = Object.keys(db.inventory).length > 0 ? db.inventory : deriveInventory(db.products, DERIVATION_SEED);
  return { products: db.products, users: db.users, orders: db.orders, carts: db.carts, tracking, inventory };
}
