import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { findUser, retailFixture } from '../../../helpers/retail.js';
import { sumMoney } from '../../../../lib/money.js';

const db = retailFixture();
const summary = (id: string) => {
  const order = db.orders[id]!;
  return { order_id: id, status: order.status, item_count: order.items.length, total: sumMoney(order.items.map((i) => i.price)) };
};
const token = (cursor: unknown) => Buffer.from(JSON.stringify(cursor)).toString('base64url');

t.test('list_user_orders', async (t) => {
  const server = await startServer(t);
  const user = findUser((u) => u.orders.length >= 5);
  const call = (args: Record<string, unknown>) => server.call('retail', 'list_user_orders', { user_id: user.user_id, ...args });

  t.test('pages through the orders in profile order', async (t) => {
    const first = await call({ page_size: 2 });
    t.equal(first.status, 200);
    t.same(first.body.orders, user.orders.slice(0, 2).map(summary));
    t.equal(first.body.total_count, user.orders.length);
    t.type(first.body.next_page_token, 'string');
    t.equal(first.body.truncated, false, 'a full page with more after it is not truncated');

    const seen = [...first.body.orders];
    let next = first.body.next_page_token as string | null;
    let pages = 1;
    while (next !== null) {
      const page = await call({ page_size: 2, page_token: next });
      t.equal(page.status, 200);
      seen.push(...page.body.orders);
      next = page.body.next_page_token;
      pages++;
    }
    t.same(seen, user.orders.map(summary), 'every order once, in order');
    t.equal(pages, Math.ceil(user.orders.length / 2));

    const all = await call({});
    t.same(all.body, { orders: user.orders.slice(0, 10).map(summary), next_page_token: null, total_count: user.orders.length, truncated: false });
  });

  t.test('filters by status; the token belongs to the filtered listing', async (t) => {
    const statusOf = (id: string) => db.orders[id]!.status;
    const mixed = findUser((u) => u.orders.some((id) => u.orders.filter((o) => statusOf(o) === statusOf(id)).length === 2 && u.orders.length > 2));
    const status = statusOf(mixed.orders.find((id) => mixed.orders.filter((o) => statusOf(o) === statusOf(id)).length === 2)!);
    const matching = mixed.orders.filter((id) => statusOf(id) === status);
    const list = (args: Record<string, unknown>) => server.call('retail', 'list_user_orders', { user_id: mixed.user_id, ...args });

    const page = await list({ status, page_size: 1 });
    t.same(page.body, { orders: matching.slice(0, 1).map(summary), next_page_token: page.body.next_page_token, total_count: 2, truncated: false });
    const second = await list({ status, page_size: 1, page_token: page.body.next_page_token });
    t.same(second.body, { orders: matching.slice(1, 2).map(summary), next_page_token: null, total_count: 2, truncated: false });
    const foreign = await list({ page_size: 1, page_token: page.body.next_page_token });
    t.equal(foreign.status, 422, 'a token of the filtered listing does not fit the unfiltered one');
    t.equal(foreign.body.detail, 'Invalid page_token');
  });

  t.test('errors', async (t) => {
    const other = findUser((u) => u.user_id !== user.user_id && u.orders.length >= 2);
    const badTokens = [
      '!!not-a-token!!',
      Buffer.from('not json').toString('base64url'),
      token([1, 2]),
      token({ user_id: other.user_id, status: null, offset: 1 }),
      token({ user_id: user.user_id, status: null, offset: -1 }),
      token({ user_id: user.user_id, status: null, offset: 1.5 }),
      token({ user_id: user.user_id, offset: 1 }),
    ];
    for (const page_token of badTokens) {
      const reply = await call({ page_token });
      t.equal(reply.status, 422, page_token);
      t.equal(reply.body.detail, 'Invalid page_token');
    }
    t.equal((await call({ page_token: token({ user_id: user.user_id, status: null, offset: 1 }) })).status, 200, 'a well-formed token is accepted');

    const unknown = await server.call('retail', 'list_user_orders', { user_id: 'nobody_here_0000' });
    t.equal(unknown.status, 404);
    t.equal(unknown.body.detail, 'User not found');

    for (const args of [{ page_size: 0 }, { page_size: 51 }, { page_size: '5' }, { status: 'shipped' }, { page_token: 3 }]) {
      t.equal((await call(args)).status, 400, JSON.stringify(args));
    }
    t.same((await server.request('GET', '/sessions/default/diff')).body.retail, [], 'read-only');
  });
});
