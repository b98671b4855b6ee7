import { hash32 } from '../../lib/random.js';
import type { AirlineDb } from './db.js';
import { FREE_BAGS_PER_PASSENGER, INSURANCE_PER_PASSENGER } from './db.js';
import type { User } from './schema.js';

// The account notice a profile shows: one true, useful line drawn from the customer's own data
// (their wallet, their membership's bag allowance, a flight of theirs the airline cancelled, the
// fare rules), the same for a profile on every read.

const names = { gold: 'Gold', silver: 'Silver', regular: 'Regular' } as const;

function candidates(db: AirlineDb, user: User): string[] {
  const notices: string[] = [];
  const methods = Object.values(user.payment_methods);
  const certificates = methods.filter((m) => m.source === 'certificate');
  if (certificates.length > 0) {
    const total = certificates.reduce((sum, m) => sum + ('amount' in m ? m.amount : 0), 0);
    notices.push(
      `Travel certificates: you hold ${certificates.length} (${total} in total). A certificate pays for one booking; what it does not cover is not refunded.`,
    );
  }
  for (const m of methods) if (m.source === 'gift_card' && m.amount > 0) notices.push(`Gift card ${m.id}: ${m.amount} left to spend on bookings and changes.`);
  const bags = FREE_BAGS_PER_PASSENGER[user.membership];
  notices.push(
    `${names[user.membership]} membership: each passenger checks ${bags.basic_economy} bags free in basic economy, ${bags.economy} in economy ` +
      `and ${bags.business} in business.`,
  );
  for (const id of user.reservations) {
    const reservation = db.reservations.get(id);
    if (!reservation || reservation.status === 'cancelled') continue;
    for (const leg of reservation.flights) {
      if (db.flights.get(leg.flight_number)?.dates[leg.date]?.status === 'cancelled') {
        notices.push(`Flight ${leg.flight_number} on ${leg.date} of reservation ${id} was cancelled by the airline: contact us to rebook or cancel.`);
      }
    }
  }
  notices.push(
    `Travel insurance: ${INSURANCE_PER_PASSENGER} per passenger, offered at booking only; it refunds a trip cancelled for health or weather reasons.`,
  );
  notices.push('Check-in: opens 24 hours before departure and closes 45 minutes before it.');
  return notices;
}

/** The notice of a profile: one of the lines that hold for it, chosen by the user id. */
export function accountNotice(db: AirlineDb, user: User): string {
  const lines = candidates(db, user);
  return lines[hash32('airline-notice', user.user_id) % lines.length]!;
}
