import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { retailFixture } from '../../../helpers/retail.js';

t.test('get_item_details', async (t) => {
  const server = await startServer(t);
  const products = Object.values(retailFixture().products);
  const product = products.find((p) => Object.values(p.variants).some((v) => !v.available))!;
  const available = Object.values(product.variants).find((v) => v.available)!;
  const unavailable = Object.values(product.variants).find((v) => !v.available)!;
  const elsewhere = Object.values(products.at(-1)!.variants).at(-1)!;

  t.test('returns the variant: options, price and availability', async (t) => {
    const session = await server.newSession();
    for (const variant of [available, unavailable, elsewhere]) {
      const reply = await server.call('retail', 'get_item_details', { item_id: variant.item_id }, session);
      t.equal(reply.status, 200);
      t.strictSame(reply.body, variant, variant.item_id);
    }
    t.same((await server.request('GET', `/sessions/${session}/diff`)).body.retail, [], 'a read changes nothing');
  });

  t.test('a product id or an unknown id is "Item not found" (404)', async (t) => {
    const session = await server.newSession();
    for (const item_id of [product.product_id, '0000000000', '']) {
      const reply = await server.call('retail', 'get_item_details', { item_id }, session);
      t.equal(reply.status, 404, item_id);
      t.equal(reply.body.detail, 'Item not found');
      t.equal(reply.body.code, 'item_not_found');
    }
  });

  t.test('invalid arguments answer 400 naming the field', async (t) => {
    const session = await server.newSession();
    const cases = [
      { args: {}, field: 'item_id' },
      { args: { item_id: [available.item_id] }, field: 'item_id' },
      { args: { item_id: available.item_id, product_id: product.product_id }, field: 'product_id' },
    ];
    for (const { args, field } of cases) {
      const reply = await server.call('retail', 'get_item_details', args, session);
      t.equal(reply.status, 400, JSON.stringify(args));
      t.equal(reply.body.errors[0].field, field);
    }
  });
});
