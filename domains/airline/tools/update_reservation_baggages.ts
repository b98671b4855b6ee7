import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { bagCount, paymentId, reservationId } from '../fields.js';
import { Reservation } from '../schema.js';
import { payForChange, PRICE_PER_NONFREE_BAG, requireReservation, requireUser, type AirlineDb } from '../db.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { AIRLINE_ERRORS } from '../errors.js';

export default defineTool({
  name: 'update_reservation_baggages',
  description:
    "Set a reservation's checked bag counts. Each non-free bag added costs 50, charged to the given payment method " +
    '(a credit card, or a gift card that covers it; not a certificate); the method is checked even when nothing is ' +
    'due. Nothing is refunded when counts go down: the policy does not allow removing bags. Work out the free ' +
    'allowance from the policy, state the new counts and the charge, and get an explicit "yes" first. ' +
    'Returns the updated reservation.',
  input: z.strictObject({
    reservation_id: reservationId,
    total_baggages: bagCount.describe('Checked bags of the whole reservation, free and paid: the new total, not the bags to add.'),
    nonfree_baggages: bagCount.describe('Checked bags beyond the free allowance: the new number, not the bags to add.'),
    payment_id: paymentId.describe("Payment method of the reservation's user that pays for added bags: a credit card or a gift card."),
  }),
  output: Reservation,
  errors: codesOf(
    AIRLINE_ERRORS,
    'user_not_found',
    'reservation_not_found',
    'payment_method_not_found',
    'certificate_not_allowed',
    'insufficient_gift_card_balance',
  ),
  mutates: true,
  effect: { destructive: true, idempotent: true },
  example: { reservation_id: 'S0Q246', total_baggages: 1, nonfree_baggages: 0, payment_id: 'credit_card_6952603' },
  run({ reservation_id, total_baggages, nonfree_baggages, payment_id }, db: AirlineDb) {
    const current = requireReservation(db, reservation_id);
    const owner = requireUser(db, current.user_id);
    const price = PRICE_PER_NONFREE_BAG * Math.max(0, nonfree_baggages - current.nonfree_baggages);
    const payment = payForChange(db, owner, payment_id, price);

    const reservation = db.reservations.edit(current.reservation_id)!;
    if (payment) reservation.payment_history.push(payment);
    reservation.total_baggages = total_baggages;
    reservation.nonfree_baggages = nonfree_baggages;
    return reservation;
  },
});
