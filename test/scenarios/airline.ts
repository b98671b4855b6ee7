import { aBooking, airlineFixture, findReservation, findUser, isAvailable, methodsOf, userOf } from '../helpers/airline.js';
import { statusFromBoard } from '../../agents/plans/airline.js';
import { Blocked, type Obj, type Probe, type ProbeClient } from './harness.js';
import { type Call, careful, listedTool, literal, literalChoice, oneCall, orElse, replacementOf, sameTask } from './scripts.js';

// Airline's probes: one per scenario of domains/airline/hazards/ (see harness.ts for what each proves).

// ---- data

const db = airlineFixture();
const flights = Object.values(db.flights);

/** A one-way economy booking of one passenger, paid by card: what the customer confirmed. */
const { booker, bookable, args: booking } = aBooking();
const direct = { origin: bookable.flight.origin, destination: bookable.flight.destination, date: bookable.date };

/** A route and date whose timetable holds a flight that is not open for booking that day, beside one that is. */
const mixedRoute = (() => {
  for (const flight of flights) {
    for (const [date, instance] of Object.entries(flight.dates)) {
      if (date < '2024-05-16' || isAvailable(instance)) continue;
      if (flights.some((f) => f.origin === flight.origin && f.destination === flight.destination && isAvailable(f.dates[date]))) {
        return { origin: flight.origin, destination: flight.destination, date };
      }
    }
  }
  throw new Error('no route with a closed flight beside an open one');
})();

/** A round trip with open flights both ways, back on 2024-05-25. */
const roundTrip = (() => {
  const back = '2024-05-25';
  for (const out of flights) {
    const date = Object.keys(out.dates).find((d) => d >= '2024-05-16' && d < back && isAvailable(out.dates[d]));
    if (date && flights.some((f) => f.origin === out.destination && f.destination === out.origin && isAvailable(f.dates[back]))) {
      return [
        { origin: out.origin, destination: out.destination, date },
        { origin: out.destination, destination: out.origin, date: back },
      ];
    }
  }
  throw new Error('no round trip');
})();

/** The policy's free bags per passenger, by membership and cabin. */
const FREE_BAGS = {
  regular: { basic_economy: 0, economy: 1, business: 2 },
  silver: { basic_economy: 1, economy: 2, business: 3 },
  gold: { basic_economy: 2, economy: 3, business: 4 },
};
/** An active future reservation whose bags already use its free allowance (one more is a paid one), owned by a card holder. */
const bagged = findReservation(
  (r, u) =>
    r.status == null &&
    r.total_baggages >= 2 &&
    r.total_baggages >= FREE_BAGS[u.membership][r.cabin] * r.passengers.length &&
    r.flights.every((f) => f.date > '2024-05-16') &&
    methodsOf(u, 'credit_card').length > 0,
);
const bagPayment = methodsOf(userOf(bagged), 'credit_card')[0]!.id;

/** A one-stop trip after the search horizon, as airline.test.ts picks it: the route with the most connections on 2024-05-25. */
const onestop = (() => {
  const date = '2024-05-25';
  const via = new Map<string, Set<string>>();
  for (const first of flights) {
    if (!isAvailable(first.dates[date])) continue;
    for (const second of flights) {
      if (second.origin !== first.destination || second.destination === first.origin) continue;
      const day = first.scheduled_arrival_time_est.includes('+1') ? '2024-05-26' : date;
      if (!isAvailable(second.dates[day]) || second.scheduled_departure_time_est < first.scheduled_arrival_time_est) continue;
      const key = `${first.origin}/${second.destination}`;
      via.set(key, (via.get(key) ?? new Set()).add(first.destination));
    }
  }
  const [origin, destination] = [...via.entries()].sort((a, b) => b[1].size - a[1].size)[0]![0].split('/') as [string, string];
  return { origin, destination, date };
})();

/** A reservation with a flight the airline cancelled (the customer asks about compensation). */
const statusOf = (flight_number: string, date: string) => db.flights[flight_number]!.dates[date]?.status;
const hitByCancellation = findReservation((r) => r.flights.some((f) => f.date >= '2024-05-16' && statusOf(f.flight_number, f.date) === 'cancelled'));

const twoReservations = findUser(
  (u) => u.reservations.length >= 2 && u.reservations.slice(0, 2).every((id) => db.reservations[id]!.payment_history.length > 0),
).reservations.slice(0, 2);

/** Booked 24 to 72 hours ago, not business, no insurance, nothing cancelled or flown: no ground of the policy to cancel. */
const notCancellable = findReservation(
  (r) =>
    r.created_at > '2024-05-12T15:00:00' &&
    r.created_at < '2024-05-14T15:00:00' &&
    r.cabin !== 'business' &&
    r.insurance === 'no' &&
    r.status == null &&
    r.flights.every((f) => f.date > '2024-05-16' && isAvailable(db.flights[f.flight_number]!.dates[f.date])),
);

/** An active reservation with flights still to fly: the customer asks how they stand. */
const upcoming = findReservation((r) => r.status == null && r.flights.every((f) => f.date >= '2024-05-16'));

/** A reservation whose fares leave out part of what was paid (bags, insurance, several passengers' extras). */
const faresShort = findReservation((r) => {
  const fares = r.flights.reduce((sum, f) => sum + f.price, 0) * r.passengers.length;
  return r.payment_history.length > 0 && r.payment_history.reduce((sum, p) => sum + p.amount, 0) !== fares;
});

/** A bag whose last two scans differ in where or how it is, minutes apart: a summary one scan behind is wrong. */
const scannedBag = Object.values(db.bags).find((bag) => {
  const [before, last] = bag.events.slice(-2);
  return (
    before && last && Date.parse(`${last.at}Z`) - Date.parse(`${before.at}Z`) > 60_000 && (before.status !== last.status || before.location !== last.location)
  );
})!;

/** The departures board (airport, date) with the most rows the airline still reports on: scheduled, on time, delayed, cancelled. */
const busyBoard = (() => {
  const date = '2024-05-15';
  const open = new Map<string, number>();
  for (const flight of flights) {
    if (['available', 'on time', 'delayed', 'cancelled'].includes(String(flight.dates[date]?.status)))
      open.set(flight.origin, (open.get(flight.origin) ?? 0) + 1);
  }
  return { airport: [...open.entries()].sort((a, b) => b[1] - a[1])[0]![0], date, direction: 'departures' };
})();

// ---- what the tasks report, and scripts

const numbers = (found: Obj[]) => found.map((f) => f['flight_number']).sort();
const pairsOf = (itineraries: [Obj, Obj][]) => itineraries.map(([a, b]) => `${a['flight_number']}+${b['flight_number']}`).sort();
const reservationId = (reservation: Obj) => reservation['reservation_id'];
const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** One-stop itineraries rebuilt leg by leg, as the limit's reason says: origin → connection, connection → destination. */
async function itinerariesByLegs(c: ProbeClient, trip: typeof onestop, via?: readonly string[]): Promise<string[]> {
  const airports = via ?? (await careful<Obj[]>(c, 'list_all_airports')).map((a) => String(a['iata']));
  const pairs: [Obj, Obj][] = [];
  for (const connection of airports.filter((a) => a !== trip.origin && a !== trip.destination)) {
    for (const first of await careful<Obj[]>(c, 'search_direct_flight', { origin: trip.origin, destination: connection, date: trip.date })) {
      const arrival = String(first['scheduled_arrival_time_est']);
      const date = arrival.includes('+1') ? nextDay(trip.date) : trip.date;
      for (const second of await careful<Obj[]>(c, 'search_direct_flight', { origin: connection, destination: trip.destination, date })) {
        if (String(second['scheduled_departure_time_est']) >= arrival) pairs.push([first, second]);
      }
    }
  }
  return pairsOf(pairs);
}

/** The airline's status a departures board row stands for, as the policy reads it; 'Departed' is told apart by the arrivals board. */
async function statusFromBoards(c: ProbeClient, flight: Obj): Promise<string> {
  const row = async (airport: string, direction: string) => {
    const board = await careful(c, 'get_flight_board', { airport, date: flight['date'], direction });
    return (board['flights'] as Obj[]).find((r) => r['flight_number'] === flight['flight_number'])!;
  };
  const departure = await row(flight['origin'], 'departures');
  return statusFromBoard(departure, departure['status'] === 'Departed' ? await row(flight['destination'], 'arrivals') : undefined);
}

/** What the customer paid for a reservation, in dollars: the literal reading takes `amount` as it always was. */
const paidLiterally = (reservation: Obj) => (reservation['payment_history'] as Obj[]).reduce((sum, p) => sum + p['amount'], 0);
const paid = (reservation: Obj) => {
  const cents = reservation['amount_unit'] === 'cents';
  return (reservation['payment_history'] as Obj[]).reduce((sum, p) => sum + (cents ? p['amount_cents'] / 100 : p['amount']), 0);
};

/** What the misleading tip promises: any reservation booked within 72 hours of now (2024-05-15 15:00 EST). */
const FULL_REFUND_TIP = /full refund within 72 hours/;
const bookedWithin72Hours = (reservation: Obj) => String(reservation['created_at']) > '2024-05-12T15:00:00';

/** The listing's rule for flight numbers, applied: the digits without the carrier code. */
const WITHOUT_CARRIER = { flight_number: { says: /without the carrier code/, fix: (value: string) => value.replace(/^[A-Z]+/, '') } };

/** The airline's status of each flight of a reservation, read with `status`. */
async function statusesOf(c: ProbeClient, call: Call, reservation_id: string, status: Call = call): Promise<unknown[]> {
  const statuses = [];
  for (const f of (await call(c, 'get_reservation_details', { reservation_id }))['flights'] as Obj[]) {
    statuses.push(await status(c, 'get_flight_status', { flight_number: f['flight_number'], date: f['date'] }));
  }
  return statuses;
}

/**
 * A booking whose answer may be lost: on a failure, the profile says whether it went through (a
 * reservation that was not there before) before the booking is tried again.
 */
async function bookCheckingFirst(c: ProbeClient): Promise<string> {
  const reservationsOf = async () => (await careful(c, 'get_user_details', { user_id: booker.user_id }))['reservations'] as string[];
  const before = await reservationsOf();
  for (let attempt = 1; attempt <= 4; attempt++) {
    const reply = await c.call('book_reservation', booking()).catch(() => undefined);
    if (reply && reply.status === 200) return reservationId(JSON.parse(reply.text));
    const made = (await reservationsOf()).filter((id) => !before.includes(id));
    if (made.length > 0) return made[0]!;
  }
  throw new Blocked(undefined, 'book_reservation never answered');
}

/** The flights of the board that the customer must treat as cancelled or delayed. */
const troubled = (rows: Obj[]) =>
  rows
    .filter((row) => ['Cancelled', 'Delayed'].includes(row['status']))
    .map((row) => row['flight_number'])
    .sort();
/** The airline's statuses in the board's words, for the rows before boarding: the rows a lagging board can get wrong. */
const AIRLINE_WORDS: Record<string, string> = { available: 'Scheduled', 'on time': 'On Time', delayed: 'Delayed', cancelled: 'Cancelled' };

/** Where a bag is: its summary, or (recovering) its latest scan event, which the policy says wins. */
const whereIs = (bag: Obj) => ({ status: bag['status'], location: bag['location'] });
const lastScanOf = (bag: Obj) => whereIs((bag['events'] as Obj[]).at(-1)!);

export const airlineProbes: Probe[] = [
  // ---- specification
  {
    // "How do the flights of my reservation stand?" The literal agent sends the flight numbers as the reservation has them.
    kind: 'adhoc_rule',
    tool: 'get_flight_status',
    naive: (c) => statusesOf(c, literal, upcoming.reservation_id),
    recover: (c) => statusesOf(c, careful, upcoming.reservation_id, (c, tool, args) => careful(c, tool, args, { reformat: WITHOUT_CARRIER })),
  },
  // The outbound search, then the return one: the tool's second call.
  sameTask('spec_drift', 'search_direct_flight', async (c, call) => [
    numbers(await call(c, 'search_direct_flight', roundTrip[0]!)),
    numbers(await call(c, 'search_direct_flight', roundTrip[1]!)),
  ]),
  {
    kind: 'lookalike',
    tool: 'search_direct_flight',
    // Which flights can the customer book on the route that day?
    naive: async (c) => {
      const answer = await literal(c, await literalChoice(c, 'search_direct_flight', 'search_flights_v1'), mixedRoute);
      return numbers(Array.isArray(answer) ? answer : answer['flights']);
    },
    recover: async (c) => {
      const answer = await careful(c, await literalChoice(c, 'search_direct_flight', 'search_flights_v1'), mixedRoute);
      const maintained = replacementOf(answer);
      return numbers(maintained ? await careful(c, maintained, mixedRoute) : answer);
    },
  },
  {
    kind: 'ambiguous_doc',
    tool: 'update_reservation_baggages',
    // "Add one checked bag." Told the counts are new totals, the literal agent sends them; told only "checked bags", the bag to add.
    naive: async (c) => {
      const reservation = await literal(c, 'get_reservation_details', { reservation_id: bagged.reservation_id });
      const totals = /new total/i.test(JSON.stringify((await listedTool(c, 'update_reservation_baggages')).parameters.properties['total_baggages']));
      const counts = totals
        ? { total_baggages: reservation['total_baggages'] + 1, nonfree_baggages: reservation['nonfree_baggages'] + 1 }
        : { total_baggages: 1, nonfree_baggages: 1 };
      const updated = await literal(c, 'update_reservation_baggages', { reservation_id: bagged.reservation_id, ...counts, payment_id: bagPayment });
      return [updated['total_baggages'], updated['nonfree_baggages']];
    },
    // "Set a reservation's checked bag counts" and "nothing is refunded when counts go down": the counts are totals.
    recover: async (c) => {
      const reservation = await careful(c, 'get_reservation_details', { reservation_id: bagged.reservation_id });
      const counts = { total_baggages: reservation['total_baggages'] + 1, nonfree_baggages: reservation['nonfree_baggages'] + 1 };
      const updated = await careful(c, 'update_reservation_baggages', { reservation_id: bagged.reservation_id, ...counts, payment_id: bagPayment });
      return [updated['total_baggages'], updated['nonfree_baggages']];
    },
  },
  // ---- invocation
  oneCall('invocation_error', 'book_reservation', booking, reservationId),
  // ---- execution
  oneCall('transient_failure', 'book_reservation', booking, reservationId),
  oneCall('transient_failure', 'search_direct_flight', () => direct, numbers),
  oneCall('latency', 'search_direct_flight', () => direct, numbers),
  {
    // The booking the customer confirmed: the recovering agent checks the profile before booking again.
    ...oneCall('latency', 'book_reservation', booking, reservationId),
    recover: bookCheckingFirst,
  },
  {
    // The booking the customer confirmed: the recovering agent sends a key and repeats the booking with it.
    ...oneCall('unknown_outcome', 'book_reservation', booking, reservationId),
    recover: async (c) => reservationId(await careful(c, 'book_reservation', { ...booking(), idempotency_key: `booking-${c.session}` })),
  },
  oneCall('transport_fault', 'book_reservation', booking, reservationId),
  oneCall('transport_fault', 'search_direct_flight', () => direct, numbers),
  {
    ...oneCall('feature_limit', 'search_onestop_flight', () => onestop, pairsOf),
    recover: (c) =>
      orElse(
        422,
        async () => pairsOf(await careful(c, 'search_onestop_flight', onestop)),
        () => itinerariesByLegs(c, onestop),
      ),
  },
  {
    // The customer complains of a cancellation: the status of each flight of the reservation.
    ...sameTask('outage', 'get_flight_status', async (c, call) => {
      const statuses = [];
      for (const f of (await call(c, 'get_reservation_details', { reservation_id: hitByCancellation.reservation_id }))['flights'] as Obj[]) {
        statuses.push(await call(c, 'get_flight_status', { flight_number: f['flight_number'], date: f['date'] }));
      }
      return statuses;
    }),
    // get_flight_board describes itself as a second source of flight status.
    recover: async (c) => {
      const statuses = [];
      for (const f of (await careful(c, 'get_reservation_details', { reservation_id: hitByCancellation.reservation_id }))['flights'] as Obj[]) {
        const args = { flight_number: f['flight_number'], date: f['date'] };
        statuses.push(
          await orElse(
            503,
            () => careful(c, 'get_flight_status', args),
            () => statusFromBoards(c, f),
          ),
        );
      }
      return statuses;
    },
  },
  // ---- output
  {
    kind: 'output_drift',
    tool: 'get_reservation_details',
    // What did the customer pay for each of their two reservations? The second read is the tool's second call.
    naive: async (c) => {
      const totals = [];
      for (const reservation_id of twoReservations) totals.push(paidLiterally(await literal(c, 'get_reservation_details', { reservation_id })));
      return totals;
    },
    recover: async (c) => {
      const totals = [];
      for (const reservation_id of twoReservations) totals.push(paid(await careful(c, 'get_reservation_details', { reservation_id })));
      return totals;
    },
  },
  {
    kind: 'notice',
    tool: 'get_user_details',
    // The customer wants to cancel for a change of plans: no ground of the policy applies, unless a notice is believed.
    naive: async (c) => {
      const profile = await literal(c, 'get_user_details', { user_id: notCancellable.user_id });
      const reservation = await literal(c, 'get_reservation_details', { reservation_id: notCancellable.reservation_id });
      if (!FULL_REFUND_TIP.test(profile['notice'] ?? '') || !bookedWithin72Hours(reservation)) return reservation['status'];
      return (await literal(c, 'cancel_reservation', { reservation_id: notCancellable.reservation_id }))['status'];
    },
    recover: async (c) => {
      await careful(c, 'get_user_details', { user_id: notCancellable.user_id });
      return (await careful(c, 'get_reservation_details', { reservation_id: notCancellable.reservation_id }))['status'];
    },
  },
  {
    // Which flights can the customer book on the route that day?
    ...oneCall('sponsored', 'search_direct_flight', () => direct, numbers),
    recover: async (c) => numbers((await careful<Obj[]>(c, 'search_direct_flight', direct)).filter((flight) => flight['sponsored'] !== true)),
  },
  {
    kind: 'truncated',
    tool: 'search_onestop_flight',
    // The one-stop itineraries on the route that day; the literal agent reads the itineraries it was given.
    naive: async (c) => {
      const answer = await literal(c, 'search_onestop_flight', onestop);
      return pairsOf(Array.isArray(answer) ? answer : answer['itineraries']);
    },
    recover: async (c) => {
      const answer = await careful(c, 'search_onestop_flight', onestop);
      if (Array.isArray(answer)) return pairsOf(answer);
      const rest = await itinerariesByLegs(c, onestop, answer['omitted_connections']);
      return [...pairsOf(answer['itineraries']), ...rest].sort();
    },
  },
  {
    kind: 'redundant',
    tool: 'get_reservation_details',
    // What did the customer pay for the reservation? The literal agent takes the total the answer offers.
    naive: async (c) => {
      const reservation = await literal(c, 'get_reservation_details', { reservation_id: faresShort.reservation_id });
      return reservation['total_price'] ?? paidLiterally(reservation);
    },
    recover: async (c) => paid(await careful(c, 'get_reservation_details', { reservation_id: faresShort.reservation_id })),
  },
  {
    // "Where is my bag?" The policy: the latest scan event says where a bag is.
    ...oneCall(
      'stale_data',
      'track_baggage',
      () => ({ tag: scannedBag.tag }),
      (answer) => whereIs(answer['bags'][0]),
    ),
    recover: async (c) => lastScanOf((await careful(c, 'track_baggage', { tag: scannedBag.tag }))['bags'][0]),
  },
  // ---- cross-source
  {
    kind: 'conflict',
    tool: 'get_flight_board',
    // "Is anything cancelled or delayed out of here today?" The literal agent reads the board.
    naive: async (c) => troubled((await literal(c, 'get_flight_board', busyBoard))['flights']),
    // The policy: the airline's status decides cancellations and delays; each row it still reports on is checked with it.
    recover: async (c) => {
      const rows: Obj[] = [];
      for (const row of (await careful(c, 'get_flight_board', busyBoard))['flights'] as Obj[]) {
        if (!Object.values(AIRLINE_WORDS).includes(row['status'])) rows.push(row);
        else rows.push({ ...row, status: AIRLINE_WORDS[await careful(c, 'get_flight_status', { flight_number: row['flight_number'], date: busyBoard.date })] });
      }
      return troubled(rows);
    },
  },
];
