import t from 'tap';
import type { Device } from '../../../../domains/smart-home/schema.js';
import { startServer } from '../../../helpers/server.js';
import { findDevice } from '../helpers.js';
import { expectCommand, expectCommandRules, expectInvalid, expectRefused, messages, findOffline, online } from '../control.js';

const lockWith = (lock: string, door?: string) => (d: Device) => online('lock')(d) && d.state.lock === lock && (!door || d.state.door === door);

t.test('lock_lock', async (t) => {
  const server = await startServer(t);
  const unlocked = findDevice(lockWith('unlocked', 'closed'), 'unlocked lock, door closed');
  const locked = findDevice(lockWith('locked'), 'locked lock');
  const jammed = findDevice(lockWith('jammed'), 'jammed lock');
  const ajar = findDevice(lockWith('unlocked', 'open'), 'unlocked lock, door open');
  const light = findDevice(online('light'), 'light');
  const offline = findOffline(['lock']);
  const jammedDetail = `${jammed.name} (${jammed.endpoint}) is jammed: its bolt cannot be moved remotely until someone frees it by hand.`;
  const ajarDetail = `${ajar.name} (${ajar.endpoint}) cannot lock: its door is open. Close the door first.`;
  const notLock = messages.unsupported(light, 'locking and unlocking');

  t.test('locks; a lock already locked answers ok unchanged', async (t) => {
    const session = await expectCommand(t, server, 'lock_lock', {}, [
      { device: unlocked, patch: { lock: 'locked' } },
      { device: locked, patch: {} },
    ]);
    const after = (await server.state(session))['smart-home'].devices[unlocked.endpoint];
    t.same(after.hub, { state: { ...unlocked.state, lock: 'locked' }, synced_at: '2024-05-15T20:00:00.000Z' }, "the hub's view shows it locked");
  });

  t.test('a jammed lock, an open door and a device that is not a lock fail', async (t) => {
    await expectRefused(t, server, 'lock_lock', [
      { args: { endpoints: [jammed.endpoint] }, status: 409, code: 'lock_jammed', detail: jammedDetail },
      { args: { endpoints: [ajar.endpoint] }, status: 409, code: 'door_ajar', detail: ajarDetail },
      { args: { endpoints: [light.endpoint] }, status: 422, code: 'capability_unsupported', detail: notLock },
      {
        args: { endpoints: [ajar.endpoint, jammed.endpoint] },
        status: 409,
        code: 'door_ajar',
        detail: ajarDetail,
        errors: [
          { endpoint: ajar.endpoint, code: 'door_ajar', error: ajarDetail },
          { endpoint: jammed.endpoint, code: 'lock_jammed', error: jammedDetail },
        ],
      },
    ]);
    await expectCommand(t, server, 'lock_lock', {}, [
      { device: jammed, code: 'lock_jammed', error: jammedDetail },
      { device: unlocked, patch: { lock: 'locked' } },
      { device: ajar, code: 'door_ajar', error: ajarDetail },
      { device: light, code: 'capability_unsupported', error: notLock },
    ]);
  });

  t.test('unknown and offline endpoints', async (t) => {
    await expectCommandRules(t, server, 'lock_lock', {}, { good: unlocked, patch: { lock: 'locked' }, offline });
  });

  t.test('arguments', async (t) => {
    await expectInvalid(t, server, 'lock_lock', [{}, { endpoints: [] }, { endpoints: [unlocked.endpoint], user_id: 'x' }]);
  });
});
