import t from 'tap';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { findUser, retailFixture } from '../../../helpers/retail.js';

const db = retailFixture();
const variants = Object.values(db.products).flatMap((p) => Object.values(p.variants).map((v) => ({ product: p, variant: v })));

t.test('add_to_cart', async (t) => {
  const server = await startServer(t);
  const { product, variant } = variants.find(({ variant }) => variant.available)!;
  const unavailable = variants.find(({ variant }) => !variant.available)!.variant;
  const newLine = (quantity: number) => ({
    item_id: variant.item_id,
    product_id: product.product_id,
    name: product.name,
    options: variant.options,
    unit_price: variant.price,
    quantity,
  });

  t.test('creates the cart of a customer who has none', async (t) => {
    const session = await server.newSession();
    const user = findUser((u) => !(u.user_id in db.carts));
    const reply = await server.call('retail', 'add_to_cart', { user_id: user.user_id, item_id: variant.item_id, quantity: 3 }, session);
    t.equal(reply.status, 200);
    const line_total = Math.round(variant.price * 3 * 100) / 100;
    t.same(reply.body, {
      user_id: user.user_id,
      items: [{ ...newLine(3), line_total }],
      item_count: 3,
      total: line_total,
    });
    t.same((await server.state(session)).retail.carts[user.user_id], { user_id: user.user_id, items: [newLine(3)] });
    const diff = (await server.request('GET', `/sessions/${session}/diff`)).body.retail;
    t.match(diff, [{ table: 'carts', id: user.user_id, op: 'insert' }]);
    t.equal(diff.length, 1);
  });

  t.test('appends a new item, or raises the quantity of one already there (default 1)', async (t) => {
    const session = await server.newSession();
    const cart = Object.values(db.carts).find((c) => !c.items.some((l) => l.item_id === variant.item_id))!;
    const added = await server.call('retail', 'add_to_cart', { user_id: cart.user_id, item_id: variant.item_id }, session);
    t.equal(added.status, 200);
    t.same((await server.state(session)).retail.carts[cart.user_id].items, [...cart.items, newLine(1)]);
    t.equal(added.body.item_count, cart.items.reduce((n, l) => n + l.quantity, 0) + 1);

    const existing = cart.items[0]!;
    const more = await server.call('retail', 'add_to_cart', { user_id: cart.user_id, item_id: existing.item_id, quantity: 2 }, session);
    t.equal(more.status, 200);
    t.equal(more.body.items[0].quantity, existing.quantity + 2);
    const stored = (await server.state(session)).retail.carts[cart.user_id].items;
    t.same(stored, [{ ...existing, quantity: existing.quantity + 2 }, ...cart.items.slice(1), newLine(1)]);
  });

  t.test('rules: a known user and item, an available item, at most 10 units; nothing changes on error', async (t) => {
    const session = await server.newSession();
    const cart = Object.values(db.carts)[0]!;
    const line = cart.items[0]!;
    const cases = [
      { args: { user_id: 'nobody_here_0000', item_id: variant.item_id }, status: 404, detail: 'User not found' },
      { args: { user_id: cart.user_id, item_id: '0000000000' }, status: 404, detail: 'Item not found' },
      { args: { user_id: cart.user_id, item_id: unavailable.item_id }, status: 409, detail: `Item ${unavailable.item_id} is not available` },
      { args: { user_id: cart.user_id, item_id: line.item_id, quantity: 11 - line.quantity }, status: 422, detail: 'At most 10 units of an item per cart' },
    ];
    await expectRejections(t, server, 'retail', 'add_to_cart', cases, session);
    const ok = await server.call(
      'retail',
      'add_to_cart',
      { user_id: cart.user_id, item_id: line.item_id, quantity: 10 - line.quantity },
      await server.newSession(),
    );
    t.equal(ok.status, 200, 'exactly 10 units is fine');
    t.equal(ok.body.items[0].quantity, 10);
    for (const args of [
      { user_id: cart.user_id, item_id: variant.item_id, quantity: 0 },
      { user_id: cart.user_id, item_id: variant.item_id, quantity: 11 },
      { user_id: cart.user_id, item_id: variant.item_id, quantity: 1.5 },
      { user_id: cart.user_id, item_id: variant.item_id, quantity: '2' },
      { user_id: cart.user_id, item_id: Number(variant.item_id) },
      { user_id: cart.user_id },
    ]) {
      t.equal((await server.call('retail', 'add_to_cart', args, session)).status, 400, JSON.stringify(args));
    }
    t.same((await server.request('GET', `/sessions/${session}/diff`)).body.retail, [], 'no record changed');
  });
});
