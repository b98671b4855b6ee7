import { answer, callTool, coping, fieldOf, type Script } from '../shared/script.js';

export interface BagTask {
  reservationId: string;
}

/** The id of the first payment method of `source` in a get_user_details output. */
function paymentOf(userDetails: string | undefined, source: string): string | undefined {
  const methods = fieldOf(userDetails, 'payment_methods');
  if (typeof methods !== 'object' || methods === null) return undefined;
  return Object.values(methods as Record<string, { id: string; source: string }>).find((method) => method.source === source)?.id;
}

/**
 * A short airline conversation: read the reservation and its owner, add a checked bag paid with a travel
 * certificate, read the refusal, and pay with the owner's credit card instead. It copes with faults (retries, an
 * idempotency key on each attempt to pay) and claims the bags only when the change answered them.
 */
export function addBagScript({ reservationId }: BagTask): Script {
  return coping((seen) => {
    const reservation = seen[0]?.output;
    const bags = (field: string) => Number(fieldOf(reservation, field)) + 1;
    const addBag = (paymentId: string | undefined) =>
      callTool('update_reservation_baggages', {
        reservation_id: reservationId,
        total_baggages: bags('total_baggages'),
        nonfree_baggages: bags('nonfree_baggages'),
        payment_id: paymentId,
        idempotency_key: `bag-${reservationId}-${paymentId}`,
      });
    const last = seen.at(-1)?.output;
    switch (seen.length) {
      case 0:
        return callTool('get_reservation_details', { reservation_id: reservationId });
      case 1:
        return callTool('get_user_details', { user_id: fieldOf(reservation, 'user_id') });
      case 2:
        return addBag(paymentOf(seen[1]?.output, 'certificate'));
      case 3:
        // Only the refusal says certificates cannot pay for a change: without it, the stand-in gives up.
        return last?.includes('certificate_not_allowed') ? addBag(paymentOf(seen[1]?.output, 'credit_card')) : answer(`I could not add the bag: ${last}`);
      default: {
        const total = fieldOf(last, 'total_baggages');
        return typeof total === 'number' ? answer(`Reservation ${reservationId} now has ${total} checked bags.`) : answer(`I could not add the bag: ${last}`);
      }
    }
  });
}

export const addBagPrompt = ({ reservationId }: BagTask) => `Add one checked bag to reservation ${reservationId}. Pay with my travel certificate if you can.`;
