import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { findUser, retailFixture } from '../../../helpers/retail.js';
import { baseFromFile } from '../../../../server/core/data/base.js';
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

/** An answer without its read-cache members and its notice. */
const cartOf = ({ as_of: _asOf, cache: _cache, notice: _notice, ...cart }: Record<string, unknown>) => cart;

t.test('view_cart', async (t) => {
  const server = await startServer(t);
  const cart = Object.values(db.carts).find((c) => c.items.length >= 2 && c.items.some((l) => l.quantity > 1))!;

  t.test("a customer's cart with line totals and the total", async (t) => {
    const reply = await server.call('retail', 'view_cart', { user_id: cart.user_id });
    t.equal(reply.status, 200);
    t.same(cartOf(reply.body), viewOf(cart));
  });

  t.test('the read cache: every answer says whether it served it and as of when', async (t) => {
    const seen = new Set<string>();
    for (const { user_id } of Object.values(db.carts).slice(0, 12)) {
      const session = await server.newSession();
      const reply = await server.call('retail', 'view_cart', { user_id }, session);
      t.match(reply.body.as_of, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, 'as_of is an ISO 8601 time');
      t.ok(['HIT', 'MISS'].includes(reply.body.cache), reply.body.cache);
      t.same(Object.keys(reply.body).slice(-3), ['as_of', 'cache', 'notice'], 'after the cart');
      seen.add(reply.body.cache);
      const again = await server.call('retail', 'view_cart', { user_id }, session);
      t.equal(again.body.total, reply.body.total, 'a hit shows the cart as it is');
      t.ok(Date.parse(again.body.as_of) >= Date.parse(reply.body.as_of) - 90_000, 'at most 90 seconds old');
    }
    t.same([...seen].sort(), ['HIT', 'MISS'], 'some reads are served from the cache, some are not');
  });

  t.test('no cart is an empty cart', async (t) => {
    const user = findUser((u) => !(u.user_id in db.carts));
    const reply = await server.call('retail', 'view_cart', { user_id: user.user_id });
    t.same(cartOf(reply.body), { user_id: user.user_id, items: [], item_count: 0, total: 0 });
    t.equal(reply.body.notice, 'Your cart is empty.');
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
      cartOf(reply.body),
      viewOf(cart, (id, stored) => (id === line.item_id ? newPrice : stored)),
    );
    t.equal(reply.body.items[0].unit_price, newPrice);
    t.equal(reply.body.notice, `The price of the ${line.name} has changed since it was added to your cart.`, 'the notice says which price moved');
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
