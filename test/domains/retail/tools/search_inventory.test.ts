import t from 'tap';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { retailFixture } from '../../../helpers/retail.js';
import { WAREHOUSES, type Product, type Variant } from '../../../../domains/retail/schema.js';

const db = retailFixture();
const products = Object.values(db.products);

/** What the tool reports for an item, computed from the fixture. */
function expected(product: Product, variant: Variant) {
  const stock = db.inventory[variant.item_id]!;
  return {
    item_id: variant.item_id,
    product_id: product.product_id,
    name: product.name,
    options: variant.options,
    available: variant.available,
    total_on_hand: stock.warehouses.reduce((sum, w) => sum + w.on_hand, 0),
    warehouses: stock.warehouses,
    restock_date: stock.restock_date,
  };
}

t.test('search_inventory', async (t) => {
  const server = await startServer(t);
  const [first, second] = products;
  const inStock = Object.values(first!.variants).find((v) => v.available)!;
  const soldOut = Object.values(second!.variants).find((v) => !v.available) ?? Object.values(second!.variants)[0]!;

  t.test('stock of the given items, in the order given, duplicates once', async (t) => {
    const reply = await server.call('retail', 'search_inventory', { item_ids: [soldOut.item_id, inStock.item_id, soldOut.item_id] });
    t.equal(reply.status, 200);
    t.same(reply.body, { items: [expected(second!, soldOut), expected(first!, inStock)] });
    t.ok(reply.body.items[1].total_on_hand > 0, 'an available item has stock');
  });

  t.test('every item of a product', async (t) => {
    const reply = await server.call('retail', 'search_inventory', { product_id: first!.product_id });
    t.equal(reply.status, 200);
    t.same(reply.body, { items: Object.values(first!.variants).map((v) => expected(first!, v)) });
  });

  t.test('one warehouse: its stock, or zero where the item is not stocked', async (t) => {
    const stock = db.inventory[inStock.item_id]!;
    const held = stock.warehouses[0]!;
    const reply = await server.call('retail', 'search_inventory', { item_ids: [inStock.item_id], warehouse: held.warehouse });
    t.match(reply.body.items[0], { total_on_hand: held.on_hand, warehouses: [held] });
    t.equal(reply.body.items[0].warehouses.length, 1);

    const partial = Object.values(db.inventory).find((s) => s.warehouses.length < WAREHOUSES.length)!;
    const missing = WAREHOUSES.find((w) => !partial.warehouses.some((h) => h.warehouse === w))!;
    const none = await server.call('retail', 'search_inventory', { item_ids: [partial.item_id], warehouse: missing });
    t.match(none.body.items[0], { item_id: partial.item_id, total_on_hand: 0, warehouses: [{ warehouse: missing, on_hand: 0 }] });
  });

  t.test('errors: exactly one of item_ids and product_id, known ids, valid arguments', async (t) => {
    const cases = [
      { args: {}, status: 422, detail: 'Give exactly one of item_ids or product_id' },
      { args: { item_ids: [inStock.item_id], product_id: first!.product_id }, status: 422, detail: 'Give exactly one of item_ids or product_id' },
      { args: { item_ids: [inStock.item_id, '0000000000'] }, status: 404, detail: 'Item not found' },
      { args: { product_id: '0000000000' }, status: 404, detail: 'Product not found' },
    ];
    await expectRejections(t, server, 'retail', 'search_inventory', cases);
    const tooMany = Array.from({ length: 51 }, () => inStock.item_id);
    for (const args of [
      { item_ids: [] },
      { item_ids: tooMany },
      { item_ids: inStock.item_id },
      { product_id: 7 },
      { product_id: first!.product_id, warehouse: 'XYZ9' },
      { query: 'lamp' },
    ]) {
      const reply = await server.call('retail', 'search_inventory', args);
      t.equal(reply.status, 400, JSON.stringify(args).slice(0, 60));
    }
    t.same((await server.request('GET', '/sessions/default/diff')).body.retail, [], 'read-only');
  });
});
