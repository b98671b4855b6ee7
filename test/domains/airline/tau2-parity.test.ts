import t from 'tap';
import { serveFiles, stateHash, tau2Tables } from '../../helpers/tau2.js';

// A small database in tau2-bench's exact airline format (no reservation status, an address without its
// second line, none of our tables), served as a user's file. Gold-style calls replayed on it must leave
// tau2-bench's end state, computed here by tau2-bench's rules: explicit nulls and raw floats.

type Db = { flights: Record<string, any>; users: Record<string, any>; reservations: Record<string, any> };

const available = (economy: number, prices: [number, number, number]) => ({
  status: 'available',
  available_seats: { basic_economy: 5, economy, business: 4 },
  prices: { basic_economy: prices[0], economy: prices[1], business: prices[2] },
});
const passenger = (first_name: string, last_name: string, dob: string) => ({ first_name, last_name, dob });
const ADA = passenger('Ada', 'Lovelace', '1985-12-10');

/** The file, as tau2-bench writes it. */
const tau2File = (): Db =>
  structuredClone({
    flights: {
      HAT001: {
        flight_number: 'HAT001',
        origin: 'JFK',
        destination: 'ORD',
        scheduled_departure_time_est: '08:00:00',
        scheduled_arrival_time_est: '10:00:00',
        dates: {
          '2024-05-10': { status: 'landed', actual_departure_time_est: '2024-05-10T08:04:00', actual_arrival_time_est: '2024-05-10T09:58:00' },
          '2024-05-20': available(10, [60, 120, 400]),
          '2024-05-21': available(10, [65, 135, 420]),
        },
      },
      HAT002: {
        flight_number: 'HAT002',
        origin: 'ORD',
        destination: 'JFK',
        scheduled_departure_time_est: '12:00:00',
        scheduled_arrival_time_est: '15:00:00',
        dates: {
          '2024-05-24': available(8, [50, 95, 380]),
          '2024-05-25': available(8, [55, 110, 390]),
          '2024-05-26': { status: 'cancelled' },
        },
      },
    },
    users: {
      ada_lovelace_1815: {
        user_id: 'ada_lovelace_1815',
        name: { first_name: 'Ada', last_name: 'Lovelace' },
        address: { address1: '12 Elm Street', city: 'Austin', country: 'USA', state: 'TX', zip: '78701' },
        email: 'ada.lovelace1815@example.com',
        dob: '1985-12-10',
        payment_methods: {
          gift_card_1000001: { source: 'gift_card', id: 'gift_card_1000001', amount: 127.35 },
          certificate_1000002: { source: 'certificate', id: 'certificate_1000002', amount: 100.0 },
          credit_card_1000003: { source: 'credit_card', id: 'credit_card_1000003', brand: 'visa', last_four: '4242' },
        },
        saved_passengers: [passenger('Charles', 'Babbage', '1971-12-26')],
        membership: 'gold',
        reservations: ['ABC123'],
      },
      alan_turing_1912: {
        user_id: 'alan_turing_1912',
        name: { first_name: 'Alan', last_name: 'Turing' },
        address: { address1: '3 Oak Road', address2: 'Suite 9', city: 'Denver', country: 'USA', state: 'CO', zip: '80202' },
        email: 'alan.turing1912@example.com',
        dob: '1982-06-23',
        payment_methods: { gift_card_2000001: { source: 'gift_card', id: 'gift_card_2000001', amount: 212.8 } },
        saved_passengers: [],
        membership: 'silver',
        reservations: ['XYZ789'],
      },
    },
    reservations: {
      ABC123: {
        reservation_id: 'ABC123',
        user_id: 'ada_lovelace_1815',
        origin: 'JFK',
        destination: 'ORD',
        flight_type: 'one_way',
        cabin: 'economy',
        flights: [{ origin: 'JFK', destination: 'ORD', flight_number: 'HAT001', date: '2024-05-20', price: 120 }],
        passengers: [ADA],
        payment_history: [{ payment_id: 'credit_card_1000003', amount: 120 }],
        created_at: '2024-05-14T10:00:00',
        total_baggages: 1,
        nonfree_baggages: 0,
        insurance: 'no',
      },
      XYZ789: {
        reservation_id: 'XYZ789',
        user_id: 'alan_turing_1912',
        origin: 'JFK',
        destination: 'JFK',
        flight_type: 'round_trip',
        cabin: 'economy',
        flights: [
          { origin: 'JFK', destination: 'ORD', flight_number: 'HAT001', date: '2024-05-20', price: 120 },
          { origin: 'ORD', destination: 'JFK', flight_number: 'HAT002', date: '2024-05-25', price: 110 },
        ],
        passengers: [passenger('Alan', 'Turing', '1982-06-23'), passenger('Joan', 'Clarke', '1987-06-24')],
        payment_history: [{ payment_id: 'gift_card_2000001', amount: 460 }],
        created_at: '2024-05-13T09:30:00',
        total_baggages: 2,
        nonfree_baggages: 0,
        insurance: 'yes',
      },
    },
  });

const calls: [string, Record<string, unknown>][] = [
  [
    'book_reservation',
    {
      user_id: 'ada_lovelace_1815',
      origin: 'JFK',
      destination: 'ORD',
      flight_type: 'one_way',
      cabin: 'economy',
      flights: [{ flight_number: 'HAT001', date: '2024-05-21' }],
      passengers: [ADA],
      payment_methods: [
        { payment_id: 'certificate_1000002', amount: 30 },
        { payment_id: 'gift_card_1000001', amount: 100 },
        { payment_id: 'credit_card_1000003', amount: 5 },
      ],
      total_baggages: 0,
      nonfree_baggages: 0,
      insurance: 'no',
    },
  ],
  ['update_reservation_baggages', { reservation_id: 'XYZ789', total_baggages: 3, nonfree_baggages: 1, payment_id: 'gift_card_2000001' }],
  [
    'update_reservation_flights',
    {
      reservation_id: 'XYZ789',
      cabin: 'economy',
      flights: [
        { flight_number: 'HAT001', date: '2024-05-20' },
        { flight_number: 'HAT002', date: '2024-05-24' },
      ],
      payment_id: 'gift_card_2000001',
    },
  ],
  [
    'update_reservation_passengers',
    { reservation_id: 'XYZ789', passengers: [passenger('Alan', 'Turing', '1982-06-23'), passenger('Joan', 'Murray', '1987-06-24')] },
  ],
  ['cancel_reservation', { reservation_id: 'ABC123' }],
  ['send_certificate', { user_id: 'alan_turing_1912', amount: 150 }],
];

// ---- tau2-bench's rules (src/tau2/domains/airline), as its Python code runs them

/** What tau2-bench's pydantic models hold once they read the file: optional fields null. */
function tau2Loaded(file: Db): Db {
  const db = structuredClone(file);
  for (const user of Object.values(db.users)) user.address.address2 ??= null;
  for (const reservation of Object.values(db.reservations)) reservation.status ??= null;
  return db;
}

/** _payment_for_update: a gift card pays (or is credited) at once; an entry when the price is not 0. */
function payForUpdate(db: Db, reservation: any, paymentId: string, price: number) {
  const method = db.users[reservation.user_id].payment_methods[paymentId];
  if (method.source === 'gift_card') method.amount -= price;
  if (price !== 0) reservation.payment_history.push({ payment_id: paymentId, amount: price });
}

const tau2: Record<string, (db: Db, args: any) => void> = {
  book_reservation(db, args) {
    const user = db.users[args.user_id];
    const count = args.passengers.length;
    const flights = args.flights.map(({ flight_number, date }: any) => {
      const flight = db.flights[flight_number];
      flight.dates[date].available_seats[args.cabin] -= count;
      return { origin: flight.origin, destination: flight.destination, flight_number, date, price: flight.dates[date].prices[args.cabin] };
    });
    for (const { payment_id, amount } of args.payment_methods) {
      const method = user.payment_methods[payment_id];
      if (method.source === 'gift_card') method.amount -= amount;
      else if (method.source === 'certificate') delete user.payment_methods[payment_id];
    }
    const id = ['HATHAT', 'HATHAU', 'HATHAV'].find((candidate) => !(candidate in db.reservations))!;
    db.reservations[id] = {
      reservation_id: id,
      user_id: args.user_id,
      origin: args.origin,
      destination: args.destination,
      flight_type: args.flight_type,
      cabin: args.cabin,
      flights,
      passengers: args.passengers,
      payment_history: args.payment_methods,
      created_at: '2024-05-15T15:00:00',
      total_baggages: args.total_baggages,
      nonfree_baggages: args.nonfree_baggages,
      insurance: args.insurance,
      status: null,
    };
    user.reservations.push(id);
  },
  update_reservation_baggages(db, { reservation_id, total_baggages, nonfree_baggages, payment_id }) {
    const reservation = db.reservations[reservation_id];
    payForUpdate(db, reservation, payment_id, 50 * Math.max(0, nonfree_baggages - reservation.nonfree_baggages));
    reservation.total_baggages = total_baggages;
    reservation.nonfree_baggages = nonfree_baggages;
  },
  update_reservation_flights(db, { reservation_id, cabin, flights, payment_id }) {
    const reservation = db.reservations[reservation_id];
    const count = reservation.passengers.length;
    let total = 0;
    const next = flights.map(({ flight_number, date }: any) => {
      const kept = reservation.flights.find((f: any) => f.flight_number === flight_number && f.date === date && cabin === reservation.cabin);
      const flight = db.flights[flight_number];
      const segment = kept ?? { flight_number, date, price: flight.dates[date].prices[cabin], origin: flight.origin, destination: flight.destination };
      total += segment.price * count;
      return segment;
    });
    total -= reservation.flights.reduce((sum: number, f: any) => sum + f.price, 0) * count;
    payForUpdate(db, reservation, payment_id, total);
    reservation.flights = next;
    reservation.cabin = cabin;
  },
  update_reservation_passengers(db, { reservation_id, passengers }) {
    db.reservations[reservation_id].passengers = passengers;
  },
  cancel_reservation(db, { reservation_id }) {
    const reservation = db.reservations[reservation_id];
    reservation.payment_history.push(...reservation.payment_history.map((p: any) => ({ payment_id: p.payment_id, amount: -p.amount })));
    reservation.status = 'cancelled';
  },
  send_certificate(db, { user_id, amount }) {
    const methods = db.users[user_id].payment_methods;
    const id = ['certificate_3221322', 'certificate_3221323', 'certificate_3221324'].find((candidate) => !(candidate in methods))!;
    methods[id] = { id, amount, source: 'certificate' };
  },
};

const TABLES = ['flights', 'users', 'reservations'];

t.test('loading: a reservation without status and an address without address2 hold null', async (t) => {
  const server = await serveFiles(t, { airline: tau2File() });
  const state = (await server.state()).airline;
  t.strictSame(tau2Tables(state, TABLES), tau2Loaded(tau2File()), "the loaded tables are tau2-bench's model_dump()");
  t.equal(state.reservations.ABC123.status, null);
  t.equal(state.users.ada_lovelace_1815.address.address2, null);
  t.equal(state.users.alan_turing_1912.address.address2, 'Suite 9', 'a value present is kept');
  const details = await server.call('airline', 'get_reservation_details', { reservation_id: 'ABC123' });
  t.equal(details.body.status, null, 'answers show the null too');
});

t.test("the replayed calls leave tau2-bench's end state exactly, in either TAU2_COMPAT mode", async (t) => {
  const expected = tau2Loaded(tau2File());
  for (const [tool, args] of calls) tau2[tool]!(expected, structuredClone(args));
  for (const mode of ['off', 'strict']) {
    const server = await serveFiles(t, { airline: tau2File() }, { TAU2_COMPAT: mode });
    const session = await server.newSession();
    for (const [tool, args] of calls) {
      const reply = await server.call('airline', tool, args, session);
      t.equal(reply.status, 200, `${mode}: ${tool}: ${reply.text.slice(0, 200)}`);
    }
    const state = tau2Tables((await server.state(session)).airline, TABLES) as unknown as Db;
    t.strictSame(state, expected, mode);
    t.equal(stateHash(state), stateHash(expected), `${mode}: the same hash of the sorted JSON`);
    // The floats tau2-bench stores, as Python prints them.
    t.equal(state.users.ada_lovelace_1815.payment_methods.gift_card_1000001.amount, 27.349999999999994, '127.35 - 100, unrounded');
    t.equal(state.users.alan_turing_1912.payment_methods.gift_card_2000001.amount, 192.8, '212.8 - 50 - (-30)');
    t.notOk('certificate_1000002' in state.users.ada_lovelace_1815.payment_methods, 'a certificate used is gone');
  }
});
