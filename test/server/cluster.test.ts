import t from 'tap';
import { domains } from '../../domains/index.js';
import { loadConfig } from '../../server/core/config.js';
import { routingKey, SessionOwnership } from '../../server/core/sessions/ownership.js';
import { startServer } from '../helpers/server.js';

// One replica of three behind nginx (CLUSTER_PEERS, CLUSTER_SELF): the ids it makes up are its own, and a
// session that hashes to another replica is refused, never created.

const peers = ['10.0.0.1:8080', '10.0.0.2:8080', '10.0.0.3:8080'];
const ownership = new SessionOwnership(peers, peers[1]!);
/** The first `client-N` id that hashes to the replica `self` or not. */
const idOf = (self: boolean) => Array.from({ length: 100 }, (_, i) => `client-${i}`).find((id) => ownership.owns(id) === self)!;

t.test('CLUSTER_PEERS and CLUSTER_SELF: both or neither, self among the peers, no peer twice', async (t) => {
  t.same(loadConfig({ CLUSTER_PEERS: peers.join(','), CLUSTER_SELF: peers[0] }, domains).cluster, { peers, self: peers[0] });
  t.equal(loadConfig({}, domains).cluster, undefined);
  t.throws(() => loadConfig({ CLUSTER_PEERS: peers.join(',') }, domains), /CLUSTER_PEERS and CLUSTER_SELF go together/);
  t.throws(
    () => loadConfig({ CLUSTER_PEERS: peers.join(','), CLUSTER_SELF: '10.0.0.9:8080' }, domains),
    /CLUSTER_SELF="10\.0\.0\.9:8080": expected one of CLUSTER_PEERS/,
  );
  t.throws(() => loadConfig({ CLUSTER_PEERS: `${peers[0]},${peers[0]}`, CLUSTER_SELF: peers[0] }, domains), /10\.0\.0\.1:8080 is listed twice/);
  t.throws(() => loadConfig({ CLUSTER_PEERS: 'a:1, b:2', CLUSTER_SELF: 'a:1' }, domains), /Invalid CLUSTER_PEERS/);
});

t.test('routing keys and ownership', async (t) => {
  t.equal(routingKey('batch-1.3'), 'batch-1', "a batch's sessions route with the batch");
  t.equal(routingKey('plain'), 'plain');
  t.equal(ownership.ownerOf('batch-9.1'), ownership.ownerOf('batch-9'));
  for (let i = 0; i < 50; i++) t.ok(ownership.owns(ownership.newId()), 'a new id is its own');
  t.throws(() => new SessionOwnership(peers, '10.0.0.9:8080'), /not one of the peers/);
});

t.test('a replica creates and serves its own sessions, and refuses the others with 421', async (t) => {
  const server = await startServer(t, { sessions: { ownership } });
  const mine = idOf(true);
  const theirs = idOf(false);

  const made = await server.request('POST', '/sessions');
  t.equal(made.status, 201);
  t.ok(ownership.owns(made.body.id), 'a session created without an id is its own');
  t.equal((await server.request('POST', '/sessions', { id: mine }, { 'x-session-id': mine })).status, 201);
  t.equal((await server.call('retail', 'get_order_details', { order_id: '#W5124601' }, mine)).status, 200);

  const refused = await server.request('POST', '/sessions', { id: theirs });
  t.equal(refused.status, 421);
  t.match(refused.headers['content-type'], /^application\/problem\+json/);
  t.match(refused.body, { code: 'misdirected_session', owner: ownership.ownerOf(theirs) });
  t.match(refused.body.detail, new RegExp(`Session '${theirs}' belongs to the replica ${ownership.ownerOf(theirs).replaceAll('.', '\\.')}`));
  t.equal((await server.call('retail', 'get_order_details', { order_id: '#W5124601' }, theirs)).status, 421, 'a call does not create it');
  t.equal((await server.request('GET', `/s/${theirs}/retail/tools`)).status, 421, 'a read does not show it');
  t.equal((await server.request('GET', `/sessions/${theirs}`)).status, 421, 'not "not found": misdirected');
  t.equal((await server.request('GET', `/sessions/${mine}-never`)).status, ownership.owns(`${mine}-never`) ? 404 : 421);
  const ids = (await server.request('GET', '/sessions')).body.map((s: { id: string }) => s.id);
  t.notOk(ids.includes(theirs), 'nothing was created for it');
  t.equal((await server.call('retail', 'get_order_details', { order_id: '#W5124601' })).status, 200, 'default lives on every replica');
});

t.test('a batch id and its sessions are the replica’s own', async (t) => {
  const server = await startServer(t, { sessions: { ownership } });
  const batch = await server.request('POST', '/batches', { task: 'retail/001', n: 3 });
  t.equal(batch.status, 201);
  t.ok(ownership.owns(batch.body.id));
  for (const session of batch.body.sessions as { id: string }[]) t.ok(ownership.owns(session.id), `${session.id} is its own`);
});

t.test('POST /sessions takes its id from the path or the header when the body has none', async (t) => {
  const server = await startServer(t);
  t.equal((await server.request('POST', '/s/by-path/sessions')).body.id, 'by-path');
  t.equal((await server.request('POST', '/sessions', {}, { 'x-session-id': 'by-header' })).body.id, 'by-header');
  t.equal((await server.request('POST', '/sessions', { id: 'same' }, { 'x-session-id': 'same' })).status, 201, 'the same id twice is one id');
  const differ = await server.request('POST', '/sessions', { id: 'one' }, { 'x-session-id': 'other' });
  t.equal(differ.status, 400);
  t.match(differ.body, { code: 'invalid_input', field: 'id' });
  t.equal((await server.request('POST', '/sessions', {}, { 'x-session-id': 'not valid!' })).body.code, 'invalid_session_id');
});

t.test("an MCP session's id starts with its session's routing key, so a balancer sends it there", async (t) => {
  const server = await startServer(t, { sessions: { ownership } });
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  };
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const mine = idOf(true);
  const bound = await fetch(`${server.origin}/s/${mine}.2/retail/mcp`, { method: 'POST', headers, body: JSON.stringify(initialize) });
  t.equal(bound.status, 200);
  t.match(bound.headers.get('mcp-session-id'), new RegExp(`^${mine}\\.[0-9a-f-]{36}$`));
  const own = await fetch(`${server.origin}/retail/mcp`, { method: 'POST', headers, body: JSON.stringify(initialize) });
  const session = own.headers.get('x-session-id')!;
  t.ok(ownership.owns(session), 'a session of its own is the replica’s');
  t.ok(own.headers.get('mcp-session-id')!.startsWith(`${session}.`));
  t.ok(ownership.owns(own.headers.get('mcp-session-id')!), 'so is the MCP session');
});
