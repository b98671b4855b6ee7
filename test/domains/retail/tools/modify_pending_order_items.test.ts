import t from 'tap';
import { roundHalfEven } from '../../../../lib/money.js';
import type { Order, OrderItem, User, Variant } from '../../../../domains/retail/schema.js';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { findOrder, findUser, giftCardsOf, retailFixture } from '../../../helpers/retail.js';
import { patchedRetailBases } from '../../../helpers/patched-retail.js';

/** tau2-bench's price difference, as stored: from 0, each (new price − old price) added in turn, unrounded. */
const tau2Difference = (...pairs: (readonly [{ price: number }, { price: number }])[]) => pairs.reduce((sum, [next, old]) => sum + (next.price - old.price), 0);
/** A gift card's balance after paying `difference`: rounded to cents as Python's round(x, 2). */
const balanceAfter = (balance: number, difference: number) => roundHalfEven(balance - difference, 2);
const paidWith = (order: Order) => order.payment_history[0]!.payment_method_id;
const isGiftCardOf = (user: User, id: string) => giftCardsOf(user).some((g) => g.id === id);
const variantsOf = (item: OrderItem) => Object.values(retailFixture().products[item.product_id]!.variants);
/** The available variants an item can be swapped for. */
const alternatives = (item: OrderItem) => variantsOf(item).filter((v) => v.available && v.item_id !== item.item_id);
const swapped = (item: OrderItem, variant: Variant): OrderItem => ({ ...item, item_id: variant.item_id, price: variant.price, options: variant.options });
const userOf = (order: Order) => findUser((u) => u.user_id === order.user_id);

t.test('modify_pending_order_items', async (t) => {
  const server = await startServer(t);
  const diff = async (session: string) => (await server.request('GET', `/sessions/${session}/diff`)).body.retail;

  t.test("each modified item gets its own new variant's price and options (tau2-bench's bug fixed)", async (t) => {
    // Two items of different products whose replacements have different prices: tau2-bench gave both the last one's.
    const pick = (o: Order) => {
      const [first, second] = o.items;
      if (!first || !second || first.product_id === second.product_id) return undefined;
      for (const a of alternatives(first)) for (const b of alternatives(second)) if (a.price !== b.price) return [a, b] as const;
      return undefined;
    };
    const order = findOrder((o, u) => o.status === 'pending' && !isGiftCardOf(u, paidWith(o)) && pick(o) !== undefined);
    const [newFirst, newSecond] = pick(order)!;
    const [first, second] = order.items as [OrderItem, OrderItem];
    const difference = tau2Difference([newFirst, first], [newSecond, second]);
    const session = await server.newSession();

    const reply = await server.call(
      'retail',
      'modify_pending_order_items',
      {
        order_id: order.order_id,
        item_ids: [first.item_id, second.item_id],
        new_item_ids: [newFirst.item_id, newSecond.item_id],
        payment_method_id: paidWith(order),
      },
      session,
    );
    t.equal(reply.status, 200);
    t.strictSame(reply.body, {
      ...order,
      items: [swapped(first, newFirst), swapped(second, newSecond), ...order.items.slice(2)],
      status: 'pending (item modified)',
      payment_history: [
        ...order.payment_history,
        { transaction_type: difference > 0 ? 'payment' : 'refund', amount: Math.abs(difference), payment_method_id: paidWith(order) },
      ],
    });
    t.equal(reply.body.items[0].price, newFirst.price, "first item: its own variant's price");
    t.not(reply.body.items[0].price, newSecond.price, "not the last variant's price");
    t.strictSame(reply.body.items[0].options, newFirst.options, "first item: its own variant's options");
    t.equal(reply.body.items[1].price, newSecond.price);
    t.strictSame(reply.body.items[1].options, newSecond.options);

    const after = (await server.state(session)).retail;
    t.strictSame(after.orders[order.order_id], reply.body, 'the change sticks in the session');
    t.strictSame(after.users[order.user_id], userOf(order), 'a card or paypal balance is not tracked: the user is unchanged');
    t.strictSame((await server.state(await server.newSession())).retail.orders[order.order_id], order, 'other sessions do not see it');
  });

  t.test('a gift card pays a positive difference: a payment entry of the unrounded difference, balance -= difference rounded to cents', async (t) => {
    const pick = (o: Order, u: User) =>
      alternatives(o.items[0]!).find((v) => v.price > o.items[0]!.price && giftCardsOf(u).some((g) => g.balance >= v.price - o.items[0]!.price));
    const order = findOrder((o, u) => o.status === 'pending' && pick(o, u) !== undefined);
    const user = userOf(order);
    const variant = pick(order, user)!;
    const item = order.items[0]!;
    const difference = tau2Difference([variant, item]);
    const card = giftCardsOf(user).find((g) => g.balance >= difference)!;
    const session = await server.newSession();

    const reply = await server.call(
      'retail',
      'modify_pending_order_items',
      { order_id: order.order_id, item_ids: [item.item_id], new_item_ids: [variant.item_id], payment_method_id: card.id },
      session,
    );
    t.equal(reply.status, 200);
    t.strictSame(reply.body.payment_history.at(-1), { transaction_type: 'payment', amount: difference, payment_method_id: card.id });
    t.strictSame(reply.body.items[0], swapped(item, variant));
    const balance = (await server.state(session)).retail.users[user.user_id].payment_methods[card.id].balance;
    t.equal(balance, balanceAfter(card.balance, difference));
    t.equal(balance, Number(balance.toFixed(2)), 'rounded to cents');
  });

  t.test('a negative difference is a refund of abs(difference); a gift card is credited at once', async (t) => {
    const pick = (o: Order) => alternatives(o.items[0]!).find((v) => v.price < o.items[0]!.price);
    const order = findOrder((o, u) => o.status === 'pending' && giftCardsOf(u).length > 0 && pick(o) !== undefined);
    const user = userOf(order);
    const variant = pick(order)!;
    const item = order.items[0]!;
    const difference = tau2Difference([variant, item]);
    const card = giftCardsOf(user)[0]!;
    const session = await server.newSession();

    const reply = await server.call(
      'retail',
      'modify_pending_order_items',
      { order_id: order.order_id, item_ids: [item.item_id], new_item_ids: [variant.item_id], payment_method_id: card.id },
      session,
    );
    t.equal(reply.status, 200);
    t.ok(difference < 0);
    t.strictSame(reply.body.payment_history.at(-1), { transaction_type: 'refund', amount: -difference, payment_method_id: card.id });
    t.equal((await server.state(session)).retail.users[user.user_id].payment_methods[card.id].balance, balanceAfter(card.balance, difference));
  });

  t.test('an id may repeat up to its count in the order; each unit gets its own replacement', async (t) => {
    const pick = (o: Order) => {
      const options = alternatives(o.items[0]!);
      const cheap = options.find((a) => options.some((b) => b.price !== a.price));
      return cheap && ([cheap, options.find((b) => b.price !== cheap.price)!] as const);
    };
    const base = findOrder((o, u) => o.status === 'pending' && !isGiftCardOf(u, paidWith(o)) && pick(o) !== undefined);
    const item = base.items[0]!;
    const [b, c] = pick(base)!;
    // No pending order of the fixture holds an item twice: give one a second unit of its first item.
    const bases = await patchedRetailBases((db) => {
      db.orders[base.order_id]!.items.push(structuredClone(item));
    });
    const patched = await startServer(t, { bases });
    const session = await patched.newSession();
    const order: Order = (await patched.state(session)).retail.orders[base.order_id];
    const last = order.items.length - 1;

    const tooMany = await patched.call(
      'retail',
      'modify_pending_order_items',
      {
        order_id: order.order_id,
        item_ids: [item.item_id, item.item_id, item.item_id],
        new_item_ids: [b.item_id, c.item_id, b.item_id],
        payment_method_id: paidWith(order),
      },
      session,
    );
    t.equal(tooMany.status, 404, 'three units of an item the order holds twice');
    t.equal(tooMany.body.detail, `${item.item_id} not found`);

    const reply = await patched.call(
      'retail',
      'modify_pending_order_items',
      { order_id: order.order_id, item_ids: [item.item_id, item.item_id], new_item_ids: [b.item_id, c.item_id], payment_method_id: paidWith(order) },
      session,
    );
    t.equal(reply.status, 200);
    t.strictSame(reply.body.items[0], swapped(item, b), 'the first unit becomes the first new item');
    t.strictSame(reply.body.items[last], swapped(item, c), 'the second unit becomes the second new item');
    t.strictSame(reply.body.items.slice(1, last), order.items.slice(1, last), 'other items unchanged');
    const difference = tau2Difference([b, item], [c, item]);
    t.strictSame(reply.body.payment_history.at(-1), {
      transaction_type: difference > 0 ? 'payment' : 'refund',
      amount: Math.abs(difference),
      payment_method_id: paidWith(order),
    });
  });

  t.test(
    'rules: exactly pending, items in the order, matching counts, other available variants of the same product, balance; nothing changes on error',
    async (t) => {
      const session = await server.newSession();
      const order = findOrder(
        (o, u) =>
          o.status === 'pending' &&
          o.items.length > 1 &&
          variantsOf(o.items[0]!).some((v) => !v.available) &&
          alternatives(o.items[0]!).length >= 2 &&
          giftCardsOf(u).some((g) => alternatives(o.items[0]!).some((v) => v.price - o.items[0]!.price > g.balance)),
      );
      const user = userOf(order);
      const item = order.items[0]!;
      const [b, c] = alternatives(item) as [Variant, Variant];
      const unavailable = variantsOf(item).find((v) => !v.available)!;
      const otherProduct = Object.values(retailFixture().products).find(
        (p) => p.product_id !== item.product_id && !order.items.some((i) => i.product_id === p.product_id),
      )!;
      const foreignVariant = Object.values(otherProduct.variants).find((v) => v.available)!;
      const poorCard = giftCardsOf(user).find((g) => alternatives(item).some((v) => v.price - item.price > g.balance))!;
      const pricey = alternatives(item).find((v) => v.price - item.price > poorCard.balance)!;
      const notInOrder = findOrder((o) => !o.items.some((i) => order.items.some((j) => j.item_id === i.item_id))).items[0]!.item_id;
      const stranger = findUser((u) => u.user_id !== user.user_id);
      const args = (item_ids: string[], new_item_ids: string[], payment_method_id = paidWith(order), order_id = order.order_id) => ({
        order_id,
        item_ids,
        new_item_ids,
        payment_method_id,
      });
      const nonPending = (['pending (item modified)', 'processed', 'delivered', 'cancelled', 'exchange requested', 'return requested'] as const).map(
        (status) => {
          const other = findOrder((o) => o.status === status);
          return {
            args: args([other.items[0]!.item_id], [other.items[0]!.item_id], paidWith(other), other.order_id),
            status: 409,
            detail: 'Non-pending order cannot be modified',
            why: status,
          };
        },
      );
      const cases = [
        ...nonPending,
        { args: args([notInOrder], [b.item_id]), status: 404, detail: `${notInOrder} not found`, why: 'item not in the order' },
        {
          args: args([item.item_id, item.item_id], [b.item_id, c.item_id]),
          status: 404,
          detail: `${item.item_id} not found`,
          why: 'more units than the order holds',
        },
        { args: args([item.item_id], [b.item_id, c.item_id]), status: 422, detail: 'The number of items to be exchanged should match', why: 'count mismatch' },
        { args: args([item.item_id], [item.item_id]), status: 422, detail: 'The new item id should be different from the old item id', why: 'same id' },
        { args: args([item.item_id], [foreignVariant.item_id]), status: 404, detail: 'Variant not found', why: 'variant of another product' },
        { args: args([item.item_id], ['0000000000']), status: 404, detail: 'Variant not found', why: 'unknown item id' },
        {
          args: args([item.item_id], [unavailable.item_id]),
          status: 422,
          detail: `New item ${unavailable.item_id} not found or available`,
          why: 'unavailable variant',
        },
        {
          args: args([item.item_id], [pricey.item_id], poorCard.id),
          status: 422,
          detail: 'Insufficient gift card balance to pay for the new item',
          why: 'gift card too low',
        },
        { args: args([item.item_id], [b.item_id], 'gift_card_0000000'), status: 404, detail: 'Payment method not found', why: 'unknown payment method' },
        {
          args: args([item.item_id], [b.item_id], Object.keys(stranger.payment_methods)[0]!),
          status: 404,
          detail: 'Payment method not found',
          why: "another user's method",
        },
        { args: args([item.item_id], [b.item_id], paidWith(order), '#W0000000'), status: 404, detail: 'Order not found', why: 'unknown order' },
      ];
      await expectRejections(t, server, 'retail', 'modify_pending_order_items', cases, session);
      t.same(await diff(session), [], 'no record changed');
    },
  );

  t.test('invalid arguments answer 400 naming the field, and change nothing', async (t) => {
    const session = await server.newSession();
    const order = findOrder((o) => o.status === 'pending' && alternatives(o.items[0]!).length > 0);
    const item = order.items[0]!;
    const valid = { order_id: order.order_id, item_ids: [item.item_id], new_item_ids: [alternatives(item)[0]!.item_id], payment_method_id: paidWith(order) };
    const { payment_method_id: _omitted, ...withoutPayment } = valid;
    const cases = [
      { args: { ...valid, item_ids: item.item_id }, field: 'item_ids' },
      { args: { ...valid, item_ids: [] }, field: 'item_ids' },
      { args: { ...valid, new_item_ids: [Number(valid.new_item_ids[0])] }, field: 'new_item_ids.0' },
      { args: withoutPayment, field: 'payment_method_id' },
      { args: { ...valid, reason: 'wants blue' }, field: 'reason' },
    ];
    for (const { args, field } of cases) {
      const reply = await server.call('retail', 'modify_pending_order_items', args, session);
      t.equal(reply.status, 400, field);
      t.strictSame(
        reply.body.errors.map((e: any) => e.field),
        [field],
      );
    }
    t.same(await diff(session), [], 'no record changed');
  });
});
