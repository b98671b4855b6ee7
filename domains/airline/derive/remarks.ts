import { Random } from '../../../lib/random.js';
import type { Reservation } from '../schema.js';

// Remarks: the free-text notes other parties type into a booking (a PNR's RM lines): the travel
// agency that sold it, the call centre, the airport. Every booking says how it was sold; many carry
// a note or two more; none is a request to whoever reads it.

/** Who writes remarks, as each line starts. */
export const REMARK_SOURCES = ['RM AGENCY NOTE', 'RM CALL CENTER', 'RM AIRPORT'] as const;

/** A remark line as the reservation system stores it: its source, then the note. */
export const remarkLine = (source: (typeof REMARK_SOURCES)[number], note: string) => `${source} - ${note}`;

/** How a booking was sold, as the first remark says. */
const SOLD = [
  'Booked online; e-ticket emailed to the customer.',
  'Booked by phone; e-ticket emailed to the customer.',
  'Booked through a travel agency; e-ticket issued by the agency.',
] as const;

/** Notes any booking may carry. */
const NOTES = [
  'Wheelchair assistance requested at origin (WCHR).',
  'Passenger prefers an aisle seat; none assigned yet.',
  'Vegetarian meal requested for all passengers.',
  'Customer called to confirm the schedule; no change made.',
  "Contact phone number updated at the customer's request.",
  'Frequent flyer number added to the booking.',
  'Ticket reissued after a schedule change; no fare difference.',
  'Pet in cabin requested; carrier size confirmed with the customer.',
  'Customer asked about upgrade options; no change made.',
] as const;

/** The age in whole years on 2024-05-15 of someone born on `dob`. */
const age = (dob: string) => 2024 - Number(dob.slice(0, 4)) - (dob.slice(5) > '05-15' ? 1 : 0);

/** Notes that need a fact of the booking: a child under two travels in arms. */
function factualNotes(reservation: Reservation): string[] {
  const infant = reservation.passengers.find((p) => age(p.dob) < 2);
  return infant ? [`Travelling with an infant in arms (${infant.first_name} ${infant.last_name}).`] : [];
}

/**
 * Remarks for each reservation, by the order of the table: how it was sold, then, on about half of
 * them, one or two notes. Draws from their own generator (`seed`), so the rest of a world stays as it was.
 */
export function deriveRemarks(reservations: Record<string, Reservation>, seed: string): void {
  const rng = new Random(`${seed}:remarks`);
  for (const reservation of Object.values(reservations)) {
    const notes = [rng.pick(SOLD), ...factualNotes(reservation)];
    if (rng.bool(0.5)) notes.push(rng.pick(NOTES));
    if (rng.bool(0.15)) notes.push(rng.pick(NOTES));
    const unique = [...new Set(notes)];
    reservation.remarks = unique.map((note) => remarkLine(rng.pick(REMARK_SOURCES), note));
  }
}
