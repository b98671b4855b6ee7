import fc from 'fast-check';
import t from 'tap';
import { NginxHashRing } from '../../lib/nginx-hash.js';

// The ring as nginx builds it is checked against nginx itself by test/cluster/scale.test.ts (sessions a
// replica names route back to it through a real nginx); here, the properties a consistent hash must have.

const servers = ['10.0.0.1:8080', '10.0.0.2:8080', '10.0.0.3:8080'];
const key = fc.string({ minLength: 1, maxLength: 64 });

t.test('every key goes to one of the servers, the same one every time', async (t) => {
  const ring = new NginxHashRing(servers);
  fc.assert(
    fc.property(key, (id) => {
      const owner = ring.ownerOf(id);
      return owner >= 0 && owner < servers.length && new NginxHashRing(servers).ownerOf(id) === owner;
    }),
  );
  t.pass('checked');
});

t.test('keys spread over the servers', async (t) => {
  const ring = new NginxHashRing(servers);
  const counts = [0, 0, 0];
  for (let i = 0; i < 30_000; i++) counts[ring.ownerOf(`session-${i}`)]! += 1;
  for (const count of counts) t.ok(count > 6_000 && count < 14_000, `about a third each: ${counts.join(', ')}`);
});

t.test('consistent: without one server, only its keys move', async (t) => {
  const all = new NginxHashRing(servers);
  const fewer = new NginxHashRing([servers[0]!, servers[2]!]);
  fc.assert(
    fc.property(key, (id) => {
      const owner = servers[all.ownerOf(id)];
      return owner === servers[1] || [servers[0], servers[2]][fewer.ownerOf(id)] === owner;
    }),
  );
  t.pass('checked');
});

t.test('a server weighs as its weight: twice the points, about twice the keys', async (t) => {
  const ring = new NginxHashRing(servers.slice(0, 2), [2, 1]);
  let first = 0;
  for (let i = 0; i < 30_000; i++) first += ring.ownerOf(`k${i}`) === 0 ? 1 : 0;
  t.ok(first > 17_000 && first < 23_000, `${first} of 30,000`);
});

t.test('the server address is hashed as host and port: another port is another ring', async (t) => {
  const a = new NginxHashRing(['h:1', 'h:2']);
  const b = new NginxHashRing(['h:1', 'h:3']);
  const unix = new NginxHashRing(['unix:/tmp/a.sock', 'unix:/tmp/b.sock']);
  let differs = 0;
  for (let i = 0; i < 1_000; i++) differs += a.ownerOf(`k${i}`) !== b.ownerOf(`k${i}`) ? 1 : 0;
  t.ok(differs > 0, 'the port counts');
  t.ok([0, 1].includes(unix.ownerOf('k')), 'unix sockets are servers too');
  t.ok([0, 1].includes(new NginxHashRing(['[::1]:8080', 'name']).ownerOf('k')), 'IPv6 and bare names too');
});
