import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { CARRIERS, ORDER_STATUSES, TRACKING_STATUSES } from '../schema.js';

// Answer fields several retail templates share, described once.

export const orderIdField = (what: string) => field.id(`The id of ${what}, as the tools give it (#W…).`);

export const orderStatusField = (what: string) => field.choice(ORDER_STATUSES, `The status of ${what}, as get_order_details gives it.`);

export const carrierField = field.choice(CARRIERS, 'The carrier delivering the package.');

export const trackingStatusField = field.choice(TRACKING_STATUSES, "The carrier's status of the package, as track_order gives it.");

/** A postal address as the tools give it, country aside. */
export const addressField = (what: string) =>
  z
    .strictObject({
      address1: field.text('The street line.'),
      address2: z.string().describe('The second line, or an empty string when there is none.'),
      city: field.text('The city.'),
      state: field.text('The state code.'),
      zip: field.text('The zip code.'),
    })
    .describe(what);

/** An address as the answer holds it. */
export const addressAnswer = ({ address1, address2, city, state, zip }: { address1: string; address2: string; city: string; state: string; zip: string }) => ({
  address1,
  address2,
  city,
  state,
  zip,
});

/** A refund or a payment: the method and the amount. */
export const moneyMovement = (what: string) =>
  z.strictObject({ payment_method_id: field.id(`The payment method ${what}.`), amount: field.money('The amount, in dollars.') });
