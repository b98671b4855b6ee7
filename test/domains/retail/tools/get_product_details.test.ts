import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { retailFixture } from '../../../helpers/retail.js';
import { RETAIL_NOW } from '../../../../domains/retail/derive.js';

t.test('get_product_details', async (t) => {
  const server = await startServer(t);
  const product = Object.values(retailFixture().products).find((p) => Object.values(p.variants).some((v) => !v.available))!;

  t.test("returns the product with every variant, available or not, in tau2-bench's fields and the page's", async (t) => {
    const session = await server.newSession();
    const reply = await server.call('retail', 'get_product_details', { product_id: product.product_id }, session);
    t.equal(reply.status, 200);
    t.ok(product.category, 'the fixture gives the product a category (for search_product)');
    t.strictSame(
      Object.keys(reply.body),
      ['name', 'product_id', 'price_range', 'variants', 'catalog_updated_at'],
      "tau2-bench's Product fields and the page's range and time: no category",
    );
    const { price_range, catalog_updated_at, ...tau2 } = reply.body;
    t.strictSame(tau2, { name: product.name, product_id: product.product_id, variants: product.variants });
    const prices = Object.values(product.variants)
      .filter((v) => v.available)
      .map((v) => v.price);
    t.strictSame(price_range, { min: Math.min(...prices), max: Math.max(...prices), currency: 'USD' }, 'the range of the items that can be ordered');
    t.match(catalog_updated_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/, 'published at a time to the second, in UTC');
    t.ok(Date.parse(catalog_updated_at) < RETAIL_NOW, "before the world's now");
    const again = await server.call('retail', 'get_product_details', { product_id: product.product_id }, await server.newSession());
    t.equal(again.body.catalog_updated_at, catalog_updated_at, 'the same time in every session');
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
