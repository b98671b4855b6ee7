import { join } from 'node:path';
import t from 'tap';
import { request } from 'undici';
import { retail } from '../../domains/retail/index.js';
import { FixtureError, loadBaseDatabase } from '../../server/core/data/base.js';
import { retailFixture } from '../helpers/retail.js';
import { runServerToExit, spawnServer } from '../helpers/process.js';
import { startServer } from '../helpers/server.js';
import { loadBases } from '../../server/core/load.js';
import { readSnapshot } from '../helpers/data-dir.js';

/** A tiny database in tau2-bench's retail format: no carts, tracking, inventory or categories. */
function tau2Style() {
  const db = retailFixture();
  const order = Object.values(db.orders).find((o) => o.status === 'delivered')!;
  const user = db.users[order.user_id]!;
  const products = Object.fromEntries(
    [...new Set(order.items.map((i) => i.product_id))].map((id) => {
      const { category: _category, ...product } = db.products[id]!;
      return [id, product];
    }),
  );
  // A copy: the fixture is frozen, and a test breaks this database on purpose.
  return structuredClone({ products, users: { [user.user_id]: { ...user, orders: [order.order_id] } }, orders: { [order.order_id]: order } });
}

t.test('a tau2-bench-style file loads, completed with derived tables', async (t) => {
  const dir = t.testdir({ 'db.json': JSON.stringify(tau2Style()) });
  const base = await loadBaseDatabase(retail, join(dir, 'db.json'));
  t.equal(base.tables.get('orders')!.size, 1);
  t.ok(base.tables.get('tracking')!.size > 0, 'shipments derived from fulfillments');
  t.ok(base.tables.get('inventory')!.size > 0, 'stock derived from variants');
  t.equal(base.tables.get('carts')!.size, 0);

  const server = await startServer(t, { bases: await loadBases([retail], { retail: join(dir, 'db.json') }) });
  const order = Object.keys(tau2Style().orders)[0]!;
  const tracked = await server.call('retail', 'get_order_details', { order_id: order });
  t.equal(tracked.status, 200, 'its tools run against it');
});

t.test('a malformed database names the file and the first invalid path', async (t) => {
  const broken = tau2Style();
  const order = Object.values(broken.orders)[0]!;
  (order as { status: string }).status = 'shipped';
  const dir = t.testdir({ 'bad.json': JSON.stringify(broken), 'syntax.json': '{"products": ' });
  await t.rejects(loadBaseDatabase(retail, join(dir, 'bad.json')), {
    constructor: FixtureError,
    message: new RegExp(`bad\\.json: invalid value at orders\\.${order.order_id.replace('#', '\\#')}\\.status`),
  });
  await t.rejects(loadBaseDatabase(retail, join(dir, 'syntax.json')), { constructor: FixtureError, message: /syntax\.json: cannot read/ });
  await t.rejects(loadBaseDatabase(retail, join(dir, 'missing.json')), { constructor: FixtureError, message: /missing\.json: file not found/ });
});

t.test('the command stops at startup with a message naming the bad variable or file', async (t) => {
  const dir = t.testdir({ 'bad.json': '{"products": {}, "users": {}, "orders": {"#W1": {"order_id": 5}}}' });
  const port = await runServerToExit({ PORT: 'eighty' });
  t.equal(port.code, 1);
  t.match(port.output, /wildtools: Invalid PORT="eighty"/);

  const fixture = await runServerToExit({ FIXTURE_RETAIL: join(dir, 'bad.json') });
  t.equal(fixture.code, 1);
  t.match(fixture.output, /bad\.json: invalid value at orders\.#W1\./);
});

t.test('SIGTERM stops the server gracefully, writing the sessions to DATA_DIR', async (t) => {
  const dir = t.testdir();
  const server = await spawnServer({ DATA_DIR: dir, SNAPSHOT_INTERVAL: '1h' });
  const reply = await request(`${server.origin}/s/kept/retail/tools/calculate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"expression": "2 + 2"}',
  });
  t.equal(await reply.body.json(), '4.0');
  server.child.kill('SIGTERM');
  t.equal(await server.exited, 0, 'exits with 0');
  const snapshot = readSnapshot(dir, 'kept');
  t.equal(snapshot.journal.length, 1, 'the final checkpoint wrote the session');
  t.match(server.output(), /SIGTERM: shutting down/);
});
