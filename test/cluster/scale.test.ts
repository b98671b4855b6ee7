import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { freePort } from '../../bench/child-server.js';
import { NGINX, startNginx } from '../../deploy/nginx.js';
import { requirePackage } from '../helpers/debian.js';
import { type ServerProcess, spawnServer } from '../helpers/process.js';

// Three replicas behind nginx with the shipped configuration (deploy/nginx/wildtools.conf), on loopback:
// 300 sessions, each whole in one replica; a replica killed fails only its own sessions, cleanly; restarted
// on its DATA_DIR, it brings them back.

const SESSIONS = 300;
const CALLS = 3;

const nginx = requirePackage('nginx', NGINX);

t.test('sessions through nginx: each in one replica; a replica down fails only its own, and they return with it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'wildtools-cluster-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const ports = [await freePort(), await freePort(), await freePort()];
  const peers = ports.map((port) => `127.0.0.1:${port}`);
  const replicas: ServerProcess[] = [];
  const start = (i: number) =>
    spawnServer({ PORT: String(ports[i]), CLUSTER_PEERS: peers.join(','), CLUSTER_SELF: peers[i]!, DATA_DIR: join(dir, `replica-${i}`) });
  t.teardown(() => {
    for (const replica of replicas) replica.child.kill('SIGKILL');
  });
  replicas.push(...(await Promise.all([0, 1, 2].map(start))));
  const listen = `127.0.0.1:${await freePort()}`;
  const balancer = await startNginx({ replicas: peers, listen, dir: join(dir, 'nginx') }, nginx);
  t.teardown(() => balancer.kill('SIGTERM'));
  const base = `http://${listen}`;

  const call = async (id: string, n: number) => {
    // Alternately named by the path prefix and by the header, as clients do.
    const byPath = n % 2 === 0;
    const answer = await fetch(`${base}${byPath ? `/s/${id}` : ''}/retail/tools/get_order_details`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(byPath ? {} : { 'x-session-id': id }) },
      body: JSON.stringify({ order_id: '#W5124601' }),
    });
    return { status: answer.status, type: answer.headers.get('content-type') ?? '', body: (await answer.json()) as Record<string, unknown> };
  };

  // Two thirds are created without an id (the replica that answers names them after itself), a third
  // named by the client in X-Session-Id (they go where their id hashes).
  const ids: string[] = [];
  for (let batch = 0; batch < SESSIONS; batch += 50) {
    const created = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const named = (batch + i) % 3 === 2 ? `scale-${batch + i}` : undefined;
        const answer = await fetch(`${base}/sessions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(named ? { 'x-session-id': named } : {}) },
          body: JSON.stringify(named ? { id: named } : {}),
        });
        t.equal(answer.status, 201, 'created through nginx');
        return ((await answer.json()) as { id: string }).id;
      }),
    );
    ids.push(...created);
    await Promise.all(
      created.map(async (id) => {
        for (let n = 0; n < CALLS; n++) t.equal((await call(id, n)).status, 200);
      }),
    );
  }
  t.equal(new Set(ids).size, SESSIONS, `${SESSIONS} distinct sessions`);

  const holder = new Map<string, number>();
  for (const id of ids) {
    const journal = (await (await fetch(`${base}/sessions/${id}/journal`)).json()) as { seq: number; tool: string }[];
    t.same(
      journal.map((entry) => entry.seq),
      [1, 2, 3],
      `${id}: its journal is whole`,
    );
    const held = await Promise.all(ports.map(async (port) => (await fetch(`http://127.0.0.1:${port}/sessions/${id}`)).status));
    t.equal(held.filter((status) => status === 200).length, 1, `${id}: in exactly one replica`);
    t.same(
      held.filter((status) => status !== 200),
      [421, 421],
      `${id}: the others refuse it as misdirected`,
    );
    holder.set(id, held.indexOf(200));
  }
  const counts = [0, 1, 2].map((i) => ids.filter((id) => holder.get(id) === i).length);
  t.ok(
    counts.every((count) => count > SESSIONS / 6),
    `spread over the replicas: ${counts.join(', ')}`,
  );

  // One replica crashes.
  const victim = 1;
  replicas[victim]!.child.kill('SIGKILL');
  await replicas[victim]!.exited;
  for (const id of ids) {
    const answer = await call(id, 1);
    if (holder.get(id) === victim) {
      t.equal(answer.status, 502, `${id}: its replica is down`);
      t.equal(answer.type, 'application/problem+json');
      t.equal(answer.body['code'], 'replica_unreachable');
    } else {
      t.equal(answer.status, 200, `${id}: unaffected`);
    }
  }
  const created = await fetch(`${base}/sessions`, { method: 'POST' });
  t.equal(created.status, 201, 'new sessions still open, on the replicas that are up');

  // It restarts on its DATA_DIR: its sessions come back as they were.
  replicas[victim] = await start(victim);
  for (const id of ids.filter((id) => holder.get(id) === victim)) {
    const journal = (await (await fetch(`${base}/sessions/${id}/journal`)).json()) as { seq: number }[];
    t.same(
      journal.map((entry) => entry.seq),
      [1, 2, 3],
      `${id}: back, with its journal`,
    );
    t.equal((await call(id, 0)).status, 200, `${id}: serving again`);
  }
});
