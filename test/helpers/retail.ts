import { deepFreeze } from '../../lib/freeze.js';
import { readFileSync } from 'node:fs';
import type { Order, RetailDatabase, User } from '../../domains/retail/schema.js';

let cached: RetailDatabase | undefined;

/** The embedded retail fixture, parsed once: tests pick their data from it instead of hard-coding ids. */
export function retailFixture(): RetailDatabase {
  cached ??= deepFreeze(JSON.parse(readFileSync(new URL('../../fixtures/retail.json', import.meta.url), 'utf8')) as RetailDatabase);
  return cached;
}

/** The first order (in file order) that satisfies `test`; throws when none does. */
export function findOrder(test: (order: Order, user: User) => boolean): Order {
  const db = retailFixture();
  for (const order of Object.values(db.orders)) if (test(order, db.users[order.user_id]!)) return order;
  throw new Error('no order in the fixture matches');
}

export function findUser(test: (user: User) => boolean): User {
  for (const user of Object.values(retailFixture().users)) if (test(user)) return user;
  throw new Error('no user in the fixture matches');
}

export const giftCardsOf = (user: User) => Object.values(user.payment_methods).filter((m) => m.source === 'gift_card');
