import t from 'tap';
import type { Device } from '../../../../domains/smart-home/schema.js';
import { startServer } from '../../../helpers/server.js';
import { findDevice } from '../helpers.js';
import { diffOf, expectInvalid, expectRefused, messages, NO_DEVICE, NOW, findOffline, online, still } from '../control.js';

const report = (d: Device, as_of: string) => ({
  endpoint: d.endpoint,
  name: d.name,
  online: d.online,
  lock: d.state.lock,
  door: d.state.door,
  battery: d.state.battery,
  as_of,
});

t.test('lock_status', async (t) => {
  const server = await startServer(t);
  const locked = findDevice((d) => online('lock')(d) && d.state.lock === 'locked', 'locked lock');
  const jammed = findDevice((d) => online('lock')(d) && d.state.lock === 'jammed', 'jammed lock');
  const offline = findOffline(['lock']);
  const light = findDevice(online('light'), 'light');

  t.test("each lock as it reports itself, in the order asked; an offline lock's last known state as of when it was last seen", async (t) => {
    const session = await still(server);
    const reply = await server.call('smart-home', 'lock_status', { endpoints: [offline.endpoint, locked.endpoint, jammed.endpoint] }, session);
    t.equal(reply.status, 200);
    t.same(reply.body, {
      notice: `Not reporting: ${offline.name}. Their state is the last one seen.`,
      locks: [report(offline, offline.last_seen_at), report(locked, NOW), report(jammed, NOW)],
    });
    t.same(Object.keys(reply.body), ['notice', 'locks'], 'the notice comes first');
    t.not(offline.last_seen_at, NOW, 'an offline lock is not reported as of now');
    t.same(await diffOf(server, session), [], 'a read changes nothing');
  });

  t.test('it reads what a command left', async (t) => {
    const session = await still(server);
    const unlocked = findDevice((d) => online('lock')(d) && d.state.lock === 'unlocked' && d.state.door === 'closed', 'unlocked lock, door closed');
    t.equal((await server.call('smart-home', 'lock_lock', { endpoints: [unlocked.endpoint] }, session)).status, 200);
    const reply = await server.call('smart-home', 'lock_status', { endpoints: [unlocked.endpoint] }, session);
    t.same(reply.body.locks, [{ ...report(unlocked, NOW), lock: 'locked' }]);
  });

  t.test('locks only, known endpoints only: refused as a whole', async (t) => {
    await expectRefused(t, server, 'lock_status', [
      {
        args: { endpoints: [locked.endpoint, light.endpoint] },
        status: 422,
        code: 'capability_unsupported',
        detail: messages.unsupported(light, 'lock status'),
      },
      { args: { endpoints: [locked.endpoint, NO_DEVICE] }, status: 404, code: 'endpoint_not_found', detail: messages.unknown(NO_DEVICE) },
    ]);
  });

  t.test('arguments', async (t) => {
    await expectInvalid(t, server, 'lock_status', [{}, { endpoints: [] }, { endpoints: [locked.endpoint, locked.endpoint] }, { endpoint: locked.endpoint }]);
  });
});
