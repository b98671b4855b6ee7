// Valid arguments for every tool of every domain, from the fixtures, with the session options a call needs
// (by domain, then tool: BASELINES[domain]()[tool]).
import type { Cart, Order, Product, RetailDatabase, User as RetailUser } from '../../domains/retail/schema.js';
import type { AirlineDatabase, Reservation, User as AirlineUser } from '../../domains/airline/schema.js';
import { retailFixture } from './retail.js';
import { airlineFixture, findFlightDate, isAvailable } from './airline.js';
import { checkInOf, est, estMs, estOf, findSegment, isActive, seatMapOrDefault, seatsOfLayout } from './airline-extra.js';
import { findStation } from '../domains/weather/helpers.js';
import { setpointLimits } from '../../domains/smart-home/climate.js';
import type { Device } from '../../domains/smart-home/schema.js';
import { findDevice as findSmartDevice, mediaOfType, smartHomeFixture } from '../domains/smart-home/helpers.js';

export type Args = Record<string, unknown>;
export interface Baseline {
  args: Args;
  /** Session options (a clock) the call needs to succeed. */
  session?: Record<string, unknown>;
}

// ---- valid arguments, from the fixtures --------------------------------------------------------

function first<T>(items: Iterable<T>, test: (item: T) => boolean, what: string): T {
  for (const item of items) if (test(item)) return item;
  throw new Error(`no ${what} in the fixture`);
}

function retailBaselines(): Record<string, Baseline[]> {
  const db: RetailDatabase = retailFixture();
  const orders = Object.values(db.orders);
  const userOf = (order: Order): RetailUser => db.users[order.user_id]!;
  const notGiftCard = (user: RetailUser) => Object.values(user.payment_methods).find((m) => m.source !== 'gift_card');
  const available = (product: Product, itemId: string) => Object.values(product.variants).find((v) => v.available && v.item_id !== itemId);
  /** An order of this status whose first item has another available variant, and whose user has a card or paypal. */
  const swappable = (status: Order['status']) => {
    const order = first(
      orders,
      (o) => o.status === status && notGiftCard(userOf(o)) !== undefined && available(db.products[o.items[0]!.product_id]!, o.items[0]!.item_id) !== undefined,
      `${status} order`,
    );
    const item = order.items[0]!;
    return {
      order_id: order.order_id,
      item_ids: [item.item_id],
      new_item_ids: [available(db.products[item.product_id]!, item.item_id)!.item_id],
      payment_method_id: notGiftCard(userOf(order))!.id,
    };
  };
  const pending = first(orders, (o) => o.status === 'pending', 'pending order');
  const repay = first(
    orders,
    (o) =>
      o.status === 'pending' &&
      o.payment_history.length === 1 &&
      Object.values(userOf(o).payment_methods).some((m) => m.source !== 'gift_card' && m.id !== o.payment_history[0]!.payment_method_id),
    'pending order with another card',
  );
  const delivered = first(orders, (o) => o.status === 'delivered', 'delivered order');
  const shipped = first(orders, (o) => o.fulfillments.some((f) => f.tracking_id.length > 0), 'shipped order');
  const product = Object.values(db.products)[0]!;
  const item = Object.values(product.variants)[0]!;
  const carts = Object.values(db.carts);
  const payable = (cart: Cart) =>
    notGiftCard(db.users[cart.user_id]!) !== undefined && cart.items.every((l) => db.products[l.product_id]?.variants[l.item_id]?.available);
  const cart = first(carts, payable, 'cart its owner can pay by card');
  const cartless = first(Object.values(db.users), (u) => !(u.user_id in db.carts), 'user without a cart');
  const someItem = first(
    Object.values(db.products).flatMap((p) => Object.values(p.variants)),
    (v) => v.available && v.item_id !== item.item_id,
    'available item',
  );
  const address = { address1: '1 Main St', address2: '', city: 'Austin', state: 'TX', country: 'USA', zip: '78701' };
  const user = Object.values(db.users)[0]!;

  return {
    find_user_id_by_email: [{ args: { email: user.email } }],
    find_user_id_by_name_zip: [{ args: { first_name: user.name.first_name, last_name: user.name.last_name, zip: user.address.zip } }],
    get_user_details: [{ args: { user_id: user.user_id } }],
    get_order_details: [{ args: { order_id: pending.order_id } }],
    get_product_details: [{ args: { product_id: product.product_id } }],
    get_item_details: [{ args: { item_id: item.item_id } }],
    list_all_product_types: [{ args: {} }],
    cancel_pending_order: [{ args: { order_id: pending.order_id, reason: 'no longer needed' } }],
    modify_pending_order_address: [{ args: { order_id: pending.order_id, ...address } }],
    modify_pending_order_items: [{ args: swappable('pending') }],
    modify_pending_order_payment: [
      {
        args: {
          order_id: repay.order_id,
          payment_method_id: Object.values(userOf(repay).payment_methods).find(
            (m) => m.source !== 'gift_card' && m.id !== repay.payment_history[0]!.payment_method_id,
          )!.id,
        },
      },
    ],
    modify_user_address: [{ args: { user_id: user.user_id, ...address } }],
    return_delivered_order_items: [
      { args: { order_id: delivered.order_id, item_ids: [delivered.items[0]!.item_id], payment_method_id: delivered.payment_history[0]!.payment_method_id } },
    ],
    exchange_delivered_order_items: [{ args: swappable('delivered') }],
    search_product: [{ args: { query: product.name } }],
    search_inventory: [{ args: { item_ids: [item.item_id, someItem.item_id] } }, { args: { product_id: product.product_id } }],
    list_user_orders: [{ args: { user_id: user.user_id } }],
    track_order: [{ args: { order_id: shipped.order_id, tracking_id: shipped.fulfillments.find((f) => f.tracking_id.length > 0)!.tracking_id[0]! } }],
    add_to_cart: [{ args: { user_id: cartless.user_id, item_id: someItem.item_id } }],
    view_cart: [{ args: { user_id: cart.user_id } }],
    remove_from_cart: [{ args: { user_id: cart.user_id, item_id: cart.items[0]!.item_id } }],
    checkout: [{ args: { user_id: cart.user_id, payment_method_id: notGiftCard(db.users[cart.user_id]!)!.id } }],
    ...sharedBaselines(),
  };
}

function airlineBaselines(): Record<string, Baseline[]> {
  const db: AirlineDatabase = airlineFixture();
  const creditCard = (user: AirlineUser) => Object.values(user.payment_methods).find((m) => m.source === 'credit_card');
  const userOf = (reservation: Reservation) => db.users[reservation.user_id]!;
  const reservation = first(Object.values(db.reservations), (r) => isActive(r) && creditCard(userOf(r)) !== undefined, 'active reservation of a card holder');
  const card = creditCard(userOf(reservation))!.id;
  const bookable = findFlightDate(({ instance }) => isAvailable(instance) && instance.available_seats.economy >= 1);
  const price = isAvailable(bookable.instance) ? bookable.instance.prices.economy : 0;
  const passenger = { first_name: 'Noor', last_name: 'Haddad', dob: '1984-03-09' };
  // A future segment still bookable: seats can be chosen, the seat map shown, check-in opened 2 hours before.
  const future = findSegment(
    (s) => isActive(s.reservation) && s.status === 'available' && s.date >= '2024-05-17' && !checkInOf(s.reservation.reservation_id, s.flight_number, s.date),
  );
  const map = seatMapOrDefault(future.flight_number, future.date);
  const freeSeat = seatsOfLayout(map.cabins[future.reservation.cabin]).find((seat) => !Object.hasOwn(map.assigned, seat))!;
  const onFlight = { reservation_id: future.reservation.reservation_id, flight_number: future.flight_number, date: future.date };
  const who = { first_name: future.reservation.passengers[0]!.first_name, last_name: future.reservation.passengers[0]!.last_name };
  const checkedIn = first(
    Object.values(db.check_ins),
    (c) => isActive(db.reservations[c.reservation_id]!) && db.flights[c.flight_number]!.dates[c.date]!.status !== 'cancelled',
    'check-in of a flight not cancelled',
  );
  const bag = Object.values(db.bags)[0]!;
  const board = db.flights[future.flight_number]!;

  return {
    get_user_details: [{ args: { user_id: reservation.user_id } }],
    get_reservation_details: [{ args: { reservation_id: reservation.reservation_id } }],
    list_all_airports: [{ args: {} }],
    search_direct_flight: [{ args: { origin: bookable.flight.origin, destination: bookable.flight.destination, date: bookable.date } }],
    search_onestop_flight: [{ args: { origin: bookable.flight.origin, destination: bookable.flight.destination, date: bookable.date } }],
    get_flight_status: [{ args: { flight_number: bookable.flight.flight_number, date: bookable.date } }],
    book_reservation: [
      {
        args: {
          user_id: reservation.user_id,
          origin: bookable.flight.origin,
          destination: bookable.flight.destination,
          flight_type: 'one_way',
          cabin: 'economy',
          flights: [{ flight_number: bookable.flight.flight_number, date: bookable.date }],
          passengers: [passenger],
          payment_methods: [{ payment_id: card, amount: price }],
          total_baggages: 0,
          nonfree_baggages: 0,
          insurance: 'no',
        },
      },
    ],
    cancel_reservation: [{ args: { reservation_id: reservation.reservation_id } }],
    update_reservation_flights: [
      {
        args: {
          reservation_id: reservation.reservation_id,
          cabin: reservation.cabin,
          flights: reservation.flights.map(({ flight_number, date }) => ({ flight_number, date })),
          payment_id: card,
        },
      },
    ],
    update_reservation_baggages: [
      {
        args: {
          reservation_id: reservation.reservation_id,
          total_baggages: reservation.total_baggages,
          nonfree_baggages: reservation.nonfree_baggages,
          payment_id: card,
        },
      },
    ],
    update_reservation_passengers: [{ args: { reservation_id: reservation.reservation_id, passengers: reservation.passengers } }],
    send_certificate: [{ args: { user_id: reservation.user_id, amount: 50 } }],
    get_flight_board: [{ args: { airport: board.origin, date: future.date, direction: 'departures' } }],
    get_seat_map: [{ args: { flight_number: future.flight_number, date: future.date, cabin: future.reservation.cabin } }],
    assign_seat: [{ args: { ...onFlight, ...who, seat: freeSeat } }],
    check_in: [{ args: onFlight, session: { clock: { start: est(estOf(estMs(future.departure) - 2 * 3_600_000)), step_ms: 0 } } }],
    get_boarding_pass: [
      {
        args: {
          reservation_id: checkedIn.reservation_id,
          flight_number: checkedIn.flight_number,
          date: checkedIn.date,
          first_name: checkedIn.passengers[0]!.first_name,
          last_name: checkedIn.passengers[0]!.last_name,
        },
      },
    ],
    track_baggage: [{ args: { tag: bag.tag } }, { args: { reservation_id: bag.reservation_id } }],
    ...sharedBaselines(),
  };
}

function weatherBaselines(): Record<string, Baseline[]> {
  const station = findStation((s) => s.offline_since === null && s.reliability >= 0.9);
  const at = { location_id: station.location_id };
  return {
    geocode_location: [{ args: { query: 'Portland' } }],
    reverse_geocode: [{ args: { lat: 45.52, lon: -122.68 } }],
    weather_current: [{ args: at }],
    weather_forecast: [{ args: at }],
    weather_hourly: [{ args: at }],
    // And a place with an alert in force at the default clock: an answer with its members.
    weather_alerts: [{ args: at }, { args: { location_id: 'chicago-us' } }],
    air_quality: [{ args: at }],
    uv_index: [{ args: at }],
    pollen_forecast: [{ args: at }],
    sun_times: [{ args: { ...at, date: '2024-05-15' } }],
    historical_weather: [{ args: { ...at, start_date: '2024-05-01', end_date: '2024-05-03' } }],
    get_climate_normals: [{ args: at }],
    list_weather_stations: [{ args: at }],
    get_station_observation: [{ args: { station_id: station.id } }],
  };
}

function smartHomeBaselines(): Record<string, Baseline[]> {
  const db = smartHomeFixture();
  const device = (what: string, test: (device: Device) => boolean) => findSmartDevice((d) => d.online && test(d), what);
  const playback = (d: Device) => d.state.playback ?? null;
  const light = device('light', (d) => d.type === 'light');
  const dimmer = device('dimmer on', (d) => d.type === 'dimmer' && d.state.power === 'on');
  const bulb = device('colour bulb on', (d) => d.type === 'color_bulb' && d.state.power === 'on');
  const thermostat = device('thermostat holding a setpoint', (d) => d.type === 'thermostat' && d.state.mode !== 'off');
  const [low, high] = setpointLimits(thermostat.state.mode as 'heat', thermostat.state.unit!);
  const lock = device('locked lock', (d) => d.type === 'lock' && d.state.lock === 'locked' && d.state.door === 'closed');
  const blind = device('blind', (d) => d.type === 'blind');
  const speaker = device('speaker on', (d) => d.type === 'speaker' && d.state.power === 'on');
  const tv = device('TV on', (d) => d.type === 'tv' && d.state.power === 'on');
  const playingOn = device('device playing with more to come', (d) => playback(d)?.status === 'playing' && playback(d)!.index + 1 < playback(d)!.queue.length);
  const paused = device('device paused', (d) => d.state.power === 'on' && playback(d)?.status === 'paused');
  const owner = db.users[db.homes[lock.home_id]!.owner_id]!;
  const alarm = Object.values(db.alarms)[0]!;
  const group = Object.values(db.homes)[0]!.groups[0]!;
  const song = mediaOfType('song')[0]!;
  const one = (d: Device) => ({ endpoints: [d.endpoint] });
  return {
    get_user_inventory: [{ args: { user_id: owner.user_id } }],
    get_device_details: [{ args: { endpoint: light.endpoint } }],
    get_device_telemetry: [{ args: { endpoint: light.endpoint } }],
    get_group_devices: [{ args: { group_id: group.group_id } }],
    power_on: [{ args: one(light) }],
    power_off: [{ args: one(light) }],
    brightness_adjust: [{ args: { ...one(dimmer), brightness: 40 } }],
    color_set: [{ args: { ...one(bulb), color: '#00FF00' } }],
    temperature_set: [{ args: { ...one(thermostat), temperature: Math.round((low + high) / 2) } }],
    mode_set: [{ args: { ...one(thermostat), mode: 'heat' } }],
    lock_lock: [{ args: one(lock) }],
    lock_unlock: [{ args: { ...one(lock), user_id: owner.user_id } }],
    lock_status: [{ args: one(lock) }],
    open_open: [{ args: one(blind) }],
    open_close: [{ args: one(blind) }],
    open_set_position: [{ args: { ...one(blind), position: 40 } }],
    volume_adjust: [{ args: { ...one(speaker), volume: 30 } }],
    channel_change: [{ args: { ...one(tv), channel: 7 } }],
    search_media: [{ args: { query: song.title } }],
    get_media_details: [{ args: { media_id: song.media_id } }],
    play: [{ args: { ...one(speaker), media_id: song.media_id } }],
    pause: [{ args: one(playingOn) }],
    resume: [{ args: one(paused) }],
    stop: [{ args: one(playingOn) }],
    next: [{ args: one(playingOn) }],
    create_alarm: [{ args: { user_id: owner.user_id, endpoint: speakerOf(owner.home_id), time: '2024-05-17T07:00:00' } }],
    get_alarms: [{ args: { user_id: alarm.user_id } }, { args: { endpoint: alarm.endpoint } }],
    delete_alarm: [{ args: { alarm_id: alarm.alarm_id } }],
    get_notifications: [{ args: { user_id: owner.user_id } }],
    get_energy_usage: [{ args: { home_id: owner.home_id } }, { args: { ...one(dimmer), start_date: '2024-05-10', end_date: '2024-05-14' } }],
  };

  function speakerOf(homeId: string): string {
    return device('speaker of the home', (d) => d.type === 'speaker' && d.home_id === homeId).endpoint;
  }
}

function sharedBaselines(): Record<string, Baseline[]> {
  return {
    calculate: [{ args: { expression: '2 + 2' } }],
    transfer_to_human_agents: [{ args: { summary: 'The customer asks for a human agent.' } }],
  };
}

export const BASELINES: Record<string, () => Record<string, Baseline[]>> = {
  retail: retailBaselines,
  airline: airlineBaselines,
  'smart-home': smartHomeBaselines,
  weather: weatherBaselines,
};

/** A domain's valid arguments by tool; a domain without any is named, with where they go. */
export function baselinesOf(domain: string): Record<string, Baseline[]> {
  const make = Object.hasOwn(BASELINES, domain) ? BASELINES[domain] : undefined;
  if (!make) throw new Error(`${domain}: no valid arguments in test/helpers/valid-calls.ts (a baselines function in BASELINES)`);
  return make();
}
