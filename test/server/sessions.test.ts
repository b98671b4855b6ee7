import t from 'tap';
import { domains } from '../../domains/index.js';
import { startServer } from '../helpers/server.js';
import { findOrder } from '../helpers/retail.js';

const pending = findOrder((o) => o.status === 'pending');
const order = pending;
const address = { address1: '1 Test Row', address2: '', city: 'Boise', state: 'ID', country: 'USA', zip: '83702' };

t.test('a session answers its seed as it was given', async (t) => {
  const server = await startServer(t);
  t.equal((await server.request('POST', '/sessions', { id: 'number', seed: 42 })).body.seed, 42, 'a number');
  t.equal((await server.request('GET', '/sessions/number')).body.seed, 42, 'a number, read again');
  t.equal((await server.request('POST', '/sessions', { id: 'text', seed: '42' })).body.seed, '42', 'a string');
  t.equal((await server.request('POST', '/sessions', { id: 'none' })).body.seed, '0', "none: the server's HAZARD_SEED, a string");
});

t.test('create, list, get and delete sessions', async (t) => {
  const server = await startServer(t);
  const created = await server.request('POST', '/sessions', { id: 'alpha', seed: 7 });
  t.equal(created.status, 201);
  t.match(created.body, { id: 'alpha', calls: 0, clock: { start: '2024-05-15T15:00:00-05:00', step_ms: 1000 } });
  t.equal(created.body.seed, 7, 'a number seed comes back as the number');
  t.equal((await server.request('POST', '/sessions', { id: 'alpha' })).status, 409, 'ids are unique');
  t.equal((await server.request('POST', '/sessions', { id: 'bad id!' })).status, 400, 'ids are checked');
  t.equal((await server.request('POST', '/sessions', { colour: 'red' })).body.errors[0].field, 'colour', 'unknown options are refused');
  const generated = await server.request('POST', '/sessions');
  t.match(generated.body.id, /^[0-9a-f-]{36}$/, 'an id is generated when none is given');
  const ids = (await server.request('GET', '/sessions')).body.map((s: { id: string }) => s.id);
  t.same(ids.sort(), ['alpha', 'default', generated.body.id].sort());
  t.equal((await server.request('GET', '/sessions/alpha')).body.id, 'alpha');
  t.equal((await server.request('DELETE', '/sessions/alpha')).status, 204);
  t.equal((await server.request('GET', '/sessions/alpha')).status, 404);
  t.equal((await server.request('GET', '/sessions/alpha/state')).body.code, 'session_not_found');
});

t.test('sessions are created on first use, by path or header, and isolated', async (t) => {
  const server = await startServer(t);
  const byPath = await server.call('retail', 'modify_pending_order_address', { order_id: pending.order_id, ...address }, 'by-path');
  t.equal(byPath.status, 200);
  t.equal((await server.request('GET', '/sessions/by-path/journal')).body.length, 1, 'the call landed in the session named by the path');
  const byHeader = await server.request('POST', '/retail/tools/get_order_details', { order_id: pending.order_id }, { 'x-session-id': 'by-header' });
  t.equal((await server.request('GET', '/sessions/by-header/journal')).body.length, 1, 'the call landed in the session named by the header');
  t.same(byHeader.body.address, pending.address, 'a write in one session is invisible in another');
  t.same((await server.call('retail', 'get_order_details', { order_id: pending.order_id }, 'by-path')).body.address, address, 'and visible in its own');
  t.same((await server.call('retail', 'get_order_details', { order_id: pending.order_id })).body.address, pending.address, 'and not in default');
  t.equal((await server.call('retail', 'get_order_details', { order_id: pending.order_id }, 'bad%20id')).status, 400, 'a bad id in the path is refused');
});

t.test('state, diff, journal and reset', async (t) => {
  const server = await startServer(t);
  const id = await server.newSession({ clock: { start: '2024-06-01T09:00:00Z', step_ms: 60_000 } });
  await server.call('retail', 'get_order_details', { order_id: pending.order_id }, id);
  await server.call('retail', 'modify_pending_order_address', { order_id: pending.order_id, ...address }, id);
  await server.call('retail', 'cancel_pending_order', { order_id: pending.order_id, reason: 'because' }, id);

  const state = await server.state(id);
  t.same(
    Object.keys(state),
    domains.map((d) => d.name),
    'one database per domain',
  );
  t.same(Object.keys(state.retail).sort(), ['carts', 'inventory', 'orders', 'products', 'tracking', 'users']);
  t.same(state.retail.orders[pending.order_id].address, address);

  const diff = (await server.request('GET', `/sessions/${id}/diff`)).body;
  t.same(
    diff.retail.map((d: { table: string; id: string; op: string; fields: string[] }) => [d.table, d.id, d.op, d.fields]),
    [
      [
        'orders',
        pending.order_id,
        'update',
        Object.keys(address)
          .filter((k) => (pending.address as Record<string, string>)[k] !== (address as Record<string, string>)[k])
          .map((k) => `address.${k}`),
      ],
    ],
  );

  const journal = (await server.request('GET', `/sessions/${id}/journal`)).body;
  t.equal(journal.length, 3);
  t.match(journal[0], {
    seq: 1,
    at: '2024-06-01T09:00:00.000Z',
    domain: 'retail',
    tool: 'get_order_details',
    call: 1,
    args: { order_id: pending.order_id },
    status: 200,
    result: { order_id: pending.order_id },
    changes: [],
    hazards: [],
  });
  t.type(journal[0].duration_ms, 'number');
  t.match(journal[1], { seq: 2, at: '2024-06-01T09:01:00.000Z', status: 200, changes: [{ table: 'orders', id: pending.order_id }] });
  t.match(journal[2], { seq: 3, status: 422, problem: { detail: 'Invalid reason' }, changes: [] });
  t.notOk('result' in journal[2], 'a failed call has a problem, not a result');

  const jsonl = await server.request('GET', `/sessions/${id}/journal?format=jsonl`);
  t.match(jsonl.headers['content-type'], /application\/x-ndjson/);
  t.same(
    jsonl.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line)),
    journal,
  );
  t.same(
    (await server.request('GET', `/sessions/${id}/journal?since=2`)).body.map((e: { seq: number }) => e.seq),
    [3],
  );

  const reset = await server.request('POST', `/sessions/${id}/reset`);
  t.match(reset.body, { id, calls: 0, clock: { now: '2024-06-01T09:00:00.000Z' } });
  t.same((await server.state(id)).retail.orders[pending.order_id].address, pending.address, 'reset restores the data');
  t.same((await server.request('GET', `/sessions/${id}/journal`)).body, [], 'and empties the journal');
});

t.test('deleting the default session resets it', async (t) => {
  const server = await startServer(t);
  await server.call('retail', 'modify_pending_order_address', { order_id: pending.order_id, ...address });
  t.equal((await server.request('DELETE', '/sessions/default')).status, 204);
  t.same((await server.call('retail', 'get_order_details', { order_id: pending.order_id })).body.address, pending.address);
});

t.test('idle sessions expire after the TTL; the cap answers 503 with Retry-After', async (t) => {
  let now = 0;
  const server = await startServer(t, { sessions: { ttlMs: 10_000, maxSessions: 2, now: () => now } });
  await server.newSession({ id: 'one' });
  now = 4_000;
  await server.newSession({ id: 'two' });
  const full = await server.request('POST', '/sessions', { id: 'three' });
  t.equal(full.status, 503);
  t.equal(full.body.code, 'session_limit');
  t.equal(full.headers['retry-after'], '6', 'seconds until the oldest idle session expires');
  t.equal((await server.call('retail', 'calculate', { expression: '1+1' }, 'implicit')).status, 503, 'implicit creation obeys the cap too');
  t.equal((await server.call('retail', 'calculate', { expression: '1+1' }, 'one')).status, 200, 'existing sessions keep working');

  now = 13_000; // 'one' was used at 4_000, 'two' created at 4_000: neither idle for 10 s yet
  t.equal(server.app.sessions.sweep(), 0);
  now = 14_000;
  t.equal(server.app.sessions.sweep(), 2, 'both expire once idle for the TTL');
  t.equal((await server.request('GET', '/sessions/one')).status, 404);
  t.equal((await server.request('POST', '/sessions', { id: 'three' })).status, 201, 'room again');
  t.equal((await server.request('GET', '/sessions/default')).status, 200, 'default never expires');
});

t.test('mutations of one session are serialized and never half-applied', async (t) => {
  const server = await startServer(t);
  const id = await server.newSession();
  const calls = Array.from({ length: 20 }, (_, i) =>
    server.call('retail', 'modify_pending_order_address', { order_id: pending.order_id, ...address, address2: `Unit ${i}` }, id),
  );
  const replies = await Promise.all(calls);
  t.ok(replies.every((r) => r.status === 200));
  const journal = (await server.request('GET', `/sessions/${id}/journal`)).body as { seq: number; args: { address2: string } }[];
  t.same(
    journal.map((e) => e.seq),
    Array.from({ length: 20 }, (_, i) => i + 1),
    'every call journaled once, in order',
  );
  const last = journal.at(-1)!.args.address2;
  t.equal((await server.state(id)).retail.orders[pending.order_id].address.address2, last, 'the state is the last write');
});

t.test('only POST /sessions and tool calls (of tools that exist or not) create sessions; /health says when the cap is reached', async (t) => {
  const server = await startServer(t, { sessions: { maxSessions: 3 } });
  for (let i = 0; i < 5; i++) {
    t.equal((await server.request('GET', `/s/reader-${i}/retail/tools`)).status, 200, 'a listing inside an unknown session answers');
    t.equal((await server.request('GET', `/s/reader-${i}/tools?format=openai`)).status, 200);
    t.equal((await server.request('GET', `/s/reader-${i}/retail/openapi.json`)).status, 200);
    t.equal((await server.request('GET', '/retail/tools', undefined, { 'x-session-id': `header-${i}` })).status, 200);
  }
  t.equal((await server.request('GET', '/s/bad%20id/retail/tools')).status, 400, 'an invalid id is still refused');
  t.same(
    (await server.request('GET', '/sessions')).body.map((s: { id: string }) => s.id),
    ['default'],
    'reads created no session',
  );
  t.match((await server.request('GET', '/health')).body, { status: 'ok', sessions: { live: 0, max: 3, full: false } });

  await server.newSession({ id: 'one' });
  t.equal((await server.call('retail', 'calculate', { expression: '1+1' }, 'two')).status, 200, 'a tool call under a new id creates it');
  // A call of a tool that does not exist (here a decoy not listed) is a call too: journaled in the session it names.
  t.equal((await server.call('retail', 'get_order_info', { order_id: order.order_id }, 'three')).status, 404, 'an unlisted decoy');
  t.match(await server.journal('three'), [{ tool: 'get_order_info', status: 404, call: 0 }], 'journaled in the session it created');
  const health = (await server.request('GET', '/health')).body;
  t.match(health, { status: 'full', sessions: { live: 3, max: 3, full: true }, detail: /MAX_SESSIONS=3/ }, '/health says the cap is reached');
  t.equal((await server.request('POST', '/sessions', { id: 'four' })).status, 503);
});
