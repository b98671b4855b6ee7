import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { retailFixture } from '../../../helpers/retail.js';

t.test('get_product_details', async (t) => {
  const server = await startServer(t);
  const product = Object.values(retailFixture().products).find((p) => Object.values(p.variants).some((v) => !v.available))!;

  t.test("returns the product with every variant, available or not, in tau2-bench's fields only", async (t) => {
    const session = await server.newSession();
    const reply = await server.call('retail', 'get_product_details', { product_id: product.product_id }, session);
    t.equal(reply.status, 200);
    t.ok(product.category, 'the fixture gives the product a category (for search_product)');
    t.strictSame(Object.keys(reply.body), ['name', 'product_id', 'variants'], "exactly tau2-bench's Product fields: no category");
    t.strictSame(reply.body, { name: product.name, product_id: product.product_id, variants: product.variants });
    t.equal(Object.keys(reply.body.variants).length, Object.keys(product.variants).length);
    t.ok(
      Object.values(reply.body.variants).some((v: any) => v.available === false),
      'unavailable variants are listed',
    );
    t.same((await server.request('GET', `/sessions/${session}/diff`)).body.retail, [], 'a read changes nothing');
  });

  t.test('an item id or an unknown id is "Product not found" (404)', async (t) => {
    const session = await server.newSession();
    for (const product_id of [Object.keys(product.variants)[0]!, '0000000000', ` ${product.product_id}`]) {
      const reply = await server.call('retail', 'get_product_details', { product_id }, session);
      t.equal(reply.status, 404, product_id);
      t.equal(reply.body.detail, 'Product not found');
      t.equal(reply.body.code, 'product_not_found');
    }
  });

  t.test('invalid arguments answer 400 naming the field', async (t) => {
    const session = await server.newSession();
    const cases = [
      { args: {}, field: 'product_id' },
      { args: { product_id: Number(product.product_id) }, field: 'product_id' },
      { args: { product_id: product.product_id, item_id: '1' }, field: 'item_id' },
    ];
    for (const { args, field } of cases) {
      const reply = await server.call('retail', 'get_product_details', args, session);
      t.equal(reply.status, 400, JSON.stringify(args));
      t.equal(reply.body.errors[0].field, field);
    }
  });
});
