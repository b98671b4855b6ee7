import { closeSync, cpSync, openSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import type { Durability } from '../../server/core/sessions/log-file.js';
import { RETRY_MS } from '../../server/core/sessions/log-file.js';
import { startServer } from '../helpers/server.js';
import { findOrder } from '../helpers/retail.js';

// A pending order paid with one gift card: cancelling it refunds the card, a record of the user's.
const order = findOrder((o) => o.status === 'pending' && o.payment_history.length === 1 && o.payment_history[0]!.payment_method_id.startsWith('gift_card'));
const card = order.payment_history[0]!.payment_method_id;
const address = { address1: '9 Disk Lane', address2: '', city: 'Reno', state: 'NV', country: 'USA', zip: '89501' };

type Server = Awaited<ReturnType<typeof startServer>>;

async function serverOn(t: Test, dir: string, durability: Durability): Promise<Server> {
  return startServer(t, { persistence: { dir, intervalMs: 3_600_000, durability } });
}

/**
 * The log's file turns read-only under the server, as a full disk refuses writes; `heal` gives it back.
 * (Every write to it fails, and nothing of a failed write reaches the file.)
 */
function breakLog(server: Server): () => void {
  const wal = (server.app.sessions.observer as unknown as { wal: { fd: number; path: string } }).wal;
  const fd = wal.fd;
  wal.fd = openSync(wal.path, 'r');
  return () => {
    closeSync(wal.fd);
    wal.fd = fd;
  };
}

const balance = async (server: Server, session: string) =>
  (await server.call('retail', 'get_user_details', { user_id: order.user_id }, session)).body.payment_methods[card].balance as number;

const settle = () => new Promise((resolve) => setTimeout(resolve, RETRY_MS * 3));

for (const durability of ['process', 'fsync'] as const) {
  t.test(`${durability}: a write whose record cannot be written is taken back, and no later write carries it`, async (t) => {
    const dir = join(t.testdir(), 'live');
    const server = await serverOn(t, dir, durability);
    const session = await server.newSession({ id: 'shopper' });
    const before = await balance(server, session);

    const heal = breakLog(server);
    const cancel = await server.call('retail', 'cancel_pending_order', { order_id: order.order_id, reason: 'no longer needed' }, session);
    t.match(cancel, { status: 503, body: { code: 'persistence_failed', detail: /was not made/ } }, 'the cancel is refused');
    t.equal(await balance(server, session), before, 'the refund is taken back in memory (a read is answered while the disk is full)');
    t.equal((await server.call('retail', 'get_order_details', { order_id: order.order_id }, session)).body.status, 'pending', 'the order is still pending');
    t.match((await server.request('GET', '/health')).body, { status: 'degraded', detail: /DATA_DIR cannot be written/ }, '/health says so');
    const refused = (await server.journal(session)).find((entry: { tool: string }) => entry.tool === 'cancel_pending_order');
    t.match(refused, { status: 503, changes: [], problem: { code: 'persistence_failed' } }, 'the journal says what the client received');
    const other = await server.call('retail', 'modify_user_address', { user_id: order.user_id, ...address }, session);
    t.equal(other.status, 503, 'every write is refused while the disk is full');

    heal();
    const after = await server.call('retail', 'modify_user_address', { user_id: order.user_id, ...address, address2: 'after' }, session);
    t.equal(after.status, 200, 'once the disk is back, a write to the same user is acknowledged');
    await settle();
    t.match((await server.request('GET', '/health')).body, { status: 'ok' }, '/health is back to ok');
    const journal = await server.journal(session);
    const state = await server.state(session);
    t.equal(state.retail.users[order.user_id].payment_methods[card].balance, before, 'the user record written holds no refund');

    // A crash now: a copy of DATA_DIR as the files stand, started by another server (its logs replayed).
    const copy = join(dir, '..', 'copy');
    cpSync(dir, copy, { recursive: true });
    const restarted = await serverOn(t, copy, durability);
    t.same(await restarted.state(session), state, 'after a restart, the data equals what was acknowledged');
    t.same(await restarted.journal(session), journal, 'and the journal equals the one served, the refused calls included');
    t.equal((await restarted.call('retail', 'get_order_details', { order_id: order.order_id }, session)).body.status, 'pending');
  });
}

t.test('what a refused call leaves: a new session, a reset and a delete are taken back', async (t) => {
  const dir = join(t.testdir(), 'live');
  const server = await serverOn(t, dir, 'process');
  await server.newSession({ id: 'kept' });
  await server.call('retail', 'modify_user_address', { user_id: order.user_id, ...address }, 'kept');
  const kept = { state: await server.state('kept'), journal: await server.journal('kept') };

  const heal = breakLog(server);
  t.match(await server.request('POST', '/sessions', { id: 'new' }), { status: 503, body: { code: 'persistence_failed' } });
  t.equal((await server.request('GET', '/sessions/new')).status, 404, 'the session refused is not there');
  t.equal((await server.request('POST', '/sessions/kept/reset')).status, 503);
  t.equal((await server.request('DELETE', '/sessions/kept')).status, 503);
  t.same(await server.state('kept'), kept.state, 'neither the reset nor the delete took effect');
  t.same((await server.journal('kept')).slice(0, kept.journal.length), kept.journal, 'the journal keeps its calls (reads made meanwhile follow them)');
  heal();
  await settle();
  const copy = join(dir, '..', 'copy');
  cpSync(dir, copy, { recursive: true });
  const restarted = await serverOn(t, copy, 'process');
  t.same(await restarted.state('kept'), kept.state);
  t.equal((await restarted.request('GET', '/sessions/new')).status, 404);
});

t.test('a DATA_DIR that cannot hold sessions stops the start with one line naming it', async (t) => {
  const file = join(t.testdir({ 'a-file': 'not a folder' }), 'a-file');
  await t.rejects(serverOn(t, file, 'process'), { message: new RegExp(`^DATA_DIR ${file} cannot hold sessions \\(ENOTDIR\\)`) });
  await t.rejects(serverOn(t, '/proc/wildtools', 'process'), { message: /^DATA_DIR \/proc\/wildtools cannot hold sessions/ });
});
