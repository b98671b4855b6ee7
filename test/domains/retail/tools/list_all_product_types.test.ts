import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { retailFixture } from '../../../helpers/retail.js';
import { patchedRetailBases } from '../../../helpers/patched-retail.js';

/** What Python's json.dumps(map, sort_keys=True) prints for names and ids in plain ASCII. */
const pythonDumps = (entries: [string, string][]) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(', ')}}`;

t.test('list_all_product_types', async (t) => {
  const server = await startServer(t);
  const products = Object.values(retailFixture().products);

  t.test('returns a JSON string {name: product_id} of every product, keys sorted, in Python json.dumps form', async (t) => {
    const session = await server.newSession();
    const reply = await server.call('retail', 'list_all_product_types', {}, session);
    t.equal(reply.status, 200);
    t.type(reply.body, 'string', 'the result is a string, not an object');
    const map = JSON.parse(reply.body);
    t.equal(Object.keys(map).length, products.length);
    t.strictSame(Object.keys(map), Object.keys(map).sort(), 'keys sorted');
    for (const product of products) t.equal(map[product.name], product.product_id, product.name);
    const expected = products.map((p): [string, string] => [p.name, p.product_id]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    t.equal(reply.body, pythonDumps(expected), '", " and ": " separators');
    t.same((await server.request('GET', `/sessions/${session}/diff`)).body.retail, [], 'a read changes nothing');
  });

  t.test('sorts by code point like Python and escapes non-ASCII names like json.dumps', async (t) => {
    const [first, second] = products;
    const bases = await patchedRetailBases((db) => {
      db.products[first!.product_id]!.name = 'zebra Café Crème';
      db.products[second!.product_id]!.name = 'Zebra Mug';
    });
    const patched = await startServer(t, { bases });
    const reply = await patched.call('retail', 'list_all_product_types', {});
    t.equal(reply.status, 200);
    t.ok(
      reply.body.endsWith(`"Zebra Mug": "${second!.product_id}", "zebra Caf\\u00e9 Cr\\u00e8me": "${first!.product_id}"}`),
      'upper case sorts before lower case; é is \\u00e9',
    );
    t.equal(JSON.parse(reply.body)['zebra Café Crème'], first!.product_id);
  });

  t.test('an unknown argument answers 400 naming it', async (t) => {
    const session = await server.newSession();
    const reply = await server.call('retail', 'list_all_product_types', { category: 'kitchen' }, session);
    t.equal(reply.status, 400);
    t.equal(reply.body.errors[0].field, 'category');
  });
});
