import { z } from 'zod';

// The airline data model of tau2-bench (flights with per-date status, users, reservations),
// plus the tables our extra tools need (airports, seat assignments, check-ins, baggage).
// Optional extras keep tau2 files loadable.

export const CABINS = ['basic_economy', 'economy', 'business'] as const;
export const Cabin = z.enum(CABINS);
export const PerCabin = z.object({ basic_economy: z.number().int(), economy: z.number().int(), business: z.number().int() });

/** "HH:MM:SS", possibly followed by "+1" when it falls on the next day. */
export const ClockTime = z.string().regex(/^\d{2}:\d{2}:\d{2}(\+1)?$/);
/** "YYYY-MM-DDTHH:MM:SS", Eastern time (tau2-bench's `_est` fields). */
export const EstDateTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
export const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const FlightDateAvailable = z.object({ status: z.literal('available'), available_seats: PerCabin, prices: PerCabin });
export const FlightDateOnTime = z.object({ status: z.literal('on time'), estimated_departure_time_est: EstDateTime, estimated_arrival_time_est: EstDateTime });
export const FlightDateDelayed = z.object({ status: z.literal('delayed'), estimated_departure_time_est: EstDateTime, estimated_arrival_time_est: EstDateTime });
export const FlightDateFlying = z.object({ status: z.literal('flying'), actual_departure_time_est: EstDateTime, estimated_arrival_time_est: EstDateTime });
export const FlightDateLanded = z.object({ status: z.literal('landed'), actual_departure_time_est: EstDateTime, actual_arrival_time_est: EstDateTime });
export const FlightDateCancelled = z.object({ status: z.literal('cancelled') });
export const FlightDateStatus = z.discriminatedUnion('status', [
  FlightDateAvailable,
  FlightDateOnTime,
  FlightDateDelayed,
  FlightDateFlying,
  FlightDateLanded,
  FlightDateCancelled,
]);
export const FLIGHT_STATUSES = ['available', 'on time', 'delayed', 'flying', 'landed', 'cancelled'] as const;

export const Flight = z.object({
  flight_number: z.string(),
  origin: z.string(),
  destination: z.string(),
  scheduled_departure_time_est: ClockTime,
  scheduled_arrival_time_est: ClockTime,
  dates: z.record(IsoDate, FlightDateStatus),
});

export const Name = z.object({ first_name: z.string(), last_name: z.string() });
export const Address = z.object({
  address1: z.string(),
  /** Optional in tau2-bench's model, which dumps it as null: absent from a file, it is null here too. */
  address2: z.string().nullable().default(null),
  city: z.string(),
  country: z.string(),
  state: z.string(),
  zip: z.string(),
});
export const Passenger = z.object({ first_name: z.string(), last_name: z.string(), dob: IsoDate });

export const CreditCard = z.object({ source: z.literal('credit_card'), id: z.string(), brand: z.string(), last_four: z.string() });
/** Note: `amount` (retail's gift cards say `balance`). */
export const GiftCard = z.object({ source: z.literal('gift_card'), id: z.string(), amount: z.number() });
export const Certificate = z.object({ source: z.literal('certificate'), id: z.string(), amount: z.number() });
export const PaymentMethod = z.discriminatedUnion('source', [CreditCard, GiftCard, Certificate]);

export const MEMBERSHIPS = ['gold', 'silver', 'regular'] as const;
export const User = z.object({
  user_id: z.string(),
  name: Name,
  address: Address,
  email: z.string(),
  dob: IsoDate,
  payment_methods: z.record(z.string(), PaymentMethod),
  saved_passengers: z.array(Passenger),
  membership: z.enum(MEMBERSHIPS),
  reservations: z.array(z.string()),
});

export const ReservationFlight = z.object({ origin: z.string(), destination: z.string(), flight_number: z.string(), date: IsoDate, price: z.number().int() });
export const Payment = z.object({ payment_id: z.string(), amount: z.number().int() });
export const Reservation = z.object({
  reservation_id: z.string(),
  user_id: z.string(),
  origin: z.string(),
  destination: z.string(),
  flight_type: z.enum(['one_way', 'round_trip']),
  cabin: Cabin,
  flights: z.array(ReservationFlight),
  passengers: z.array(Passenger),
  payment_history: z.array(Payment),
  created_at: EstDateTime,
  total_baggages: z.number().int(),
  nonfree_baggages: z.number().int(),
  insurance: z.enum(['yes', 'no']),
  /** Optional in tau2-bench's model, which dumps it as null: absent from a file, it is null here too. */
  status: z.literal('cancelled').nullable().default(null),
  /** Free-text notes other parties (agency, call centre, airport) typed into the booking. Not in tau2-bench. */
  remarks: z.array(z.string()).optional(),
});

// ---- extra tables (not in tau2-bench) ----

export const Airport = z.object({
  iata: z.string().regex(/^[A-Z]{3}$/),
  city: z.string(),
  name: z.string(),
  timezone: z.string().describe('IANA time zone, e.g. America/New_York'),
});

/** Seats of one flight on one date: the cabin layout and who sits where. Keyed "FLIGHT/YYYY-MM-DD". */
export const SeatMap = z.object({
  flight_number: z.string(),
  date: IsoDate,
  cabins: z.record(
    Cabin,
    z.object({
      rows: z.tuple([z.number().int(), z.number().int()]).describe('first and last row'),
      letters: z.string().describe("seat letters, e.g. 'ABCDEF'"),
    }),
  ),
  /** seat ("12C") → who holds it. */
  assigned: z.record(z.string(), z.object({ reservation_id: z.string(), passenger: Name })),
});

/** A reservation checked in for one flight. Keyed "RESERVATION/FLIGHT/YYYY-MM-DD". */
export const CheckIn = z.object({
  reservation_id: z.string(),
  flight_number: z.string(),
  date: IsoDate,
  checked_in_at: EstDateTime,
  passengers: z.array(
    z.object({
      first_name: z.string(),
      last_name: z.string(),
      seat: z.string().nullable(),
      boarding_group: z.number().int().min(1).max(9),
      sequence: z.number().int(),
    }),
  ),
});

export const BAG_STATUSES = ['checked', 'loaded', 'in_transit', 'arrived', 'delayed', 'lost'] as const;
/** One checked bag. Keyed by its tag number. */
export const Bag = z.object({
  tag: z.string(),
  reservation_id: z.string(),
  passenger: Name,
  flight_number: z.string(),
  date: IsoDate,
  status: z.enum(BAG_STATUSES),
  location: z.string().describe('IATA code of where the bag was last scanned'),
  events: z.array(z.object({ at: EstDateTime, location: z.string(), status: z.enum(BAG_STATUSES), description: z.string() })),
});

export const AirlineDatabase = z.object({
  flights: z.record(z.string(), Flight),
  users: z.record(z.string(), User),
  reservations: z.record(z.string(), Reservation),
  airports: z.record(z.string(), Airport).default({}),
  seat_maps: z.record(z.string(), SeatMap).default({}),
  check_ins: z.record(z.string(), CheckIn).default({}),
  bags: z.record(z.string(), Bag).default({}),
});

export type Cabin = z.infer<typeof Cabin>;
export type Flight = z.infer<typeof Flight>;
export type FlightDateStatus = z.infer<typeof FlightDateStatus>;
export type Passenger = z.infer<typeof Passenger>;
export type PaymentMethod = z.infer<typeof PaymentMethod>;
export type User = z.infer<typeof User>;
export type Reservation = z.infer<typeof Reservation>;
export type Airport = z.infer<typeof Airport>;
export type SeatMap = z.infer<typeof SeatMap>;
export type CheckIn = z.infer<typeof CheckIn>;
export type Bag = z.infer<typeof Bag>;
export type AirlineDatabase = z.infer<typeof AirlineDatabase>;

/** The record type of each table, as tools see it. */
export interface AirlineRecords extends Record<string, unknown> {
  flights: Flight;
  users: User;
  reservations: Reservation;
  airports: Airport;
  seat_maps: SeatMap;
  check_ins: CheckIn;
  bags: Bag;
}

/** tau2-bench's fixed "now": 2024-05-15 15:00 Eastern. */
export const AIRLINE_NOW_EST = '2024-05-15T15:00:00';
