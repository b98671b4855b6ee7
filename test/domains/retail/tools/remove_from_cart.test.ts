import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { findUser, retailFixture } from '../../../helpers/retail.js';

const db = retailFixture();

t.test('remove_from_cart', async (t) => {
  const server = await startServer(t);
  const cart = Object.values(db.carts).find((c) => c.items.length >= 2 && c.items[0]!.quantity >= 2)!;
  const [first, ...others] = cart.items;
  const remove = (args: Record<string, unknown>, session: string) => server.call('retail', 'remove_from_cart', { user_id: cart.user_id, ...args }, session);

  t.test('removes some units of a line', async (t) => {
    const session = await server.newSession();
    const reply = await remove({ item_id: first!.item_id, quantity: 1 }, session);
    t.equal(reply.status, 200);
    t.equal(reply.body.items[0].quantity, first!.quantity - 1);
    t.equal(reply.body.item_count, cart.items.reduce((n, l) => n + l.quantity, 0) - 1);
    t.same((await server.state(session)).retail.carts[cart.user_id].items, [{ ...first, quantity: first!.quantity - 1 }, ...others]);
  });

  t.test('removes the whole line without a quantity, or with all of it', async (t) => {
    const session = await server.newSession();
    const reply = await remove({ item_id: first!.item_id }, session);
    t.equal(reply.status, 200);
    t.same(
      reply.body.items.map((i: { item_id: string }) => i.item_id),
      others.map((l) => l.item_id),
    );
    t.same((await server.state(session)).retail.carts[cart.user_id].items, others);

    const second = others[0]!;
    const all = await remove({ item_id: second.item_id, quantity: second.quantity }, session);
    t.equal(all.status, 200);
    t.same((await server.state(session)).retail.carts[cart.user_id].items, others.slice(1));
  });

  t.test('the cart record is deleted once empty', async (t) => {
    const session = await server.newSession();
    let reply: Awaited<ReturnType<typeof remove>> | undefined;
    for (const line of cart.items) reply = await remove({ item_id: line.item_id }, session);
    t.same(reply!.body, { user_id: cart.user_id, items: [], item_count: 0, total: 0 });
    t.notOk(cart.user_id in (await server.state(session)).retail.carts, 'no cart record');
    const diff = (await server.request('GET', `/sessions/${session}/diff`)).body.retail;
    t.match(diff, [{ table: 'carts', id: cart.user_id, op: 'delete' }]);
    t.equal(diff.length, 1);
  });

  t.test('rules: the item must be in the cart, in that quantity; nothing changes on error', async (t) => {
    const session = await server.newSession();
    const absent = Object.values(db.products)
      .flatMap((p) => Object.keys(p.variants))
      .find((id) => !cart.items.some((l) => l.item_id === id))!;
    const noCart = findUser((u) => !(u.user_id in db.carts));
    const cases = [
      { args: { item_id: absent }, status: 404, detail: `Item ${absent} is not in the cart` },
      { args: { user_id: noCart.user_id, item_id: first!.item_id }, status: 404, detail: `Item ${first!.item_id} is not in the cart` },
      { args: { user_id: 'nobody_here_0000', item_id: first!.item_id }, status: 404, detail: 'User not found' },
      {
        args: { item_id: first!.item_id, quantity: first!.quantity + 1 },
        status: 422,
        detail: `Cannot remove ${first!.quantity + 1} units of item ${first!.item_id}: the cart holds ${first!.quantity}`,
      },
    ];
    for (const { args, status, detail } of cases) {
      const reply = await remove(args, session);
      t.equal(reply.status, status, detail);
      t.equal(reply.body.detail, detail);
      t.match(reply.headers['content-type'], /application\/problem\+json/);
    }
    for (const args of [{ item_id: first!.item_id, quantity: 0 }, { item_id: first!.item_id, quantity: '1' }, { item_id: [first!.item_id] }, {}]) {
      t.equal((await remove(args, session)).status, 400, JSON.stringify(args));
    }
    t.same((await server.request('GET', `/sessions/${session}/diff`)).body.retail, [], 'no record changed');
  });
});
