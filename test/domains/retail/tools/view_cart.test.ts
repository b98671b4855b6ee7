import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { findUser, retailFixture } from '../../../helpers/retail.js';
import { baseFromFile } from '../../../../server/data/base.js';
import { retail } from '../../../../domains/retail/index.js';
import type { Cart } from '../../../../domains/retail/schema.js';

const db = retailFixture();

/** The view of a stored cart, at the given unit prices. */
function viewOf(cart: Cart, price: (itemId: string, stored: number) => number = (_, stored) => stored) {
  const items = cart.items.map((line) => {
    const unit_price = price(line.item_id, line.unit_price);
    const { item_id, product_id, name, options, quantity } = line;
    return { item_id, product_id, name, options, unit_price, quantity, line_total: Math.round(unit_price * quantity * 100) / 100 };
  });
  const total = Math.round(items.reduce((sum, i) => sum + i.line_total, 0) * 100) / 100;
  return { user_id: cart.user_id, items, item_count: items.reduce((sum, i) => sum + i.quantity, 0), total };
}

t.test('view_cart', async (t) => {
  const server = await startServer(t);
  const cart = Object.values(db.carts).find((c) => c.items.length >= 2 && c.items.some((l) => l.quantity > 1))!;

  t.test("a customer's cart with line totals and the total", async (t) => {
    const reply = await server.call('retail', 'view_cart', { user_id: cart.user_id });
    t.equal(reply.status, 200);
    t.same(reply.body, viewOf(cart));
  });

  t.test('no cart is an empty cart', async (t) => {
    const user = findUser((u) => !(u.user_id in db.carts));
    const reply = await server.call('retail', 'view_cart', { user_id: user.user_id });
    t.same(reply.body, { user_id: user.user_id, items: [], item_count: 0, total: 0 });
  });

  t.test('prices are the current catalog prices; the stored lines stay as they were', async (t) => {
    const changed = structuredClone(db);
    const line = cart.items[0]!;
    const newPrice = Math.round((line.unit_price * 1.5 + 0.01) * 100) / 100;
    changed.products[line.product_id]!.variants[line.item_id]!.price = newPrice;
    const repriced = await startServer(t, { bases: new Map([['retail', baseFromFile(retail, changed, 'repriced')]]) });

    const reply = await repriced.call('retail', 'view_cart', { user_id: cart.user_id });
    t.equal(reply.status, 200);
    t.same(
      reply.body,
      viewOf(cart, (id, stored) => (id === line.item_id ? newPrice : stored)),
    );
    t.equal(reply.body.items[0].unit_price, newPrice);
    t.equal((await repriced.state()).retail.carts[cart.user_id].items[0].unit_price, line.unit_price, 'stored line unchanged');
  });

  t.test('errors', async (t) => {
    const unknown = await server.call('retail', 'view_cart', { user_id: 'nobody_here_0000' });
    t.equal(unknown.status, 404);
    t.equal(unknown.body.detail, 'User not found');
    for (const args of [{}, { user_id: 12 }, { user_id: cart.user_id, item_id: '1' }]) {
      t.equal((await server.call('retail', 'view_cart', args)).status, 400, JSON.stringify(args));
    }
    t.same((await server.request('GET', '/sessions/default/diff')).body.retail, [], 'read-only');
  });
});
