import t from 'tap';
import type { Device, User } from '../../../../domains/smart-home/schema.js';
import { startServer } from '../../../helpers/server.js';
import { findDevice, smartHomeFixture } from '../helpers.js';
import { expectCommand, expectCommandRules, expectInvalid, expectRefused, messages, findOffline, online } from '../control.js';

const users = (): User[] => Object.values(smartHomeFixture().users);
const lockWith = (lock: string) => (d: Device) => online('lock')(d) && d.state.lock === lock;
/** A user of the lock's home who is on its access list. */
const holderOf = (lock: Device) => users().find((u) => u.home_id === lock.home_id && lock.authorized_users?.includes(u.user_id));

t.test('lock_unlock', async (t) => {
  const server = await startServer(t);
  const locked = findDevice((d) => lockWith('locked')(d) && !!holderOf(d), 'locked lock with an authorized user');
  const user = holderOf(locked)!;
  const unlocked = findDevice((d) => lockWith('unlocked')(d) && !!holderOf(d), 'unlocked lock with an authorized user');
  const jammed = findDevice((d) => lockWith('jammed')(d) && !!holderOf(d), 'jammed lock with an authorized user');
  const light = findDevice(online('light'), 'light');
  const elsewhere = findDevice((d) => d.type === 'lock' && d.online && d.home_id !== user.home_id, 'lock of another home');
  const offline = findOffline(['lock']);
  /** A member of a lock's home who is not on its access list. */
  const outsiderOf = (lock: Device) => users().find((u) => u.home_id === lock.home_id && !lock.authorized_users?.includes(u.user_id));
  const guarded = findDevice((d) => lockWith('locked')(d) && !!outsiderOf(d), 'locked lock with a member of its home off its access list');
  const outsider = outsiderOf(guarded)!;

  const notHome = (d: Device) => `${d.name} (${d.endpoint}) is not in the home of user ${user.user_id}: they cannot unlock it.`;
  const jammedDetail = `${jammed.name} (${jammed.endpoint}) is jammed: its bolt cannot be moved remotely until someone frees it by hand.`;
  const notLock = messages.unsupported(light, 'locking and unlocking');

  t.test('unlocks for a user on the access list; a lock already unlocked answers ok unchanged', async (t) => {
    await expectCommand(t, server, 'lock_unlock', { user_id: user.user_id }, [{ device: locked, patch: { lock: 'unlocked' } }]);
    await expectCommand(t, server, 'lock_unlock', { user_id: holderOf(unlocked)!.user_id }, [{ device: unlocked, patch: {} }]);
  });

  t.test('only for users on the access list, of its home; jammed locks and other devices fail', async (t) => {
    const offList = `User ${outsider.user_id} is not on the access list of ${guarded.name} (${guarded.endpoint}): it stays locked.`;
    await expectRefused(t, server, 'lock_unlock', [
      { args: { endpoints: [locked.endpoint], user_id: 'nobody_0000' }, status: 404, code: 'user_not_found', detail: "Unknown user_id 'nobody_0000'." },
      { args: { endpoints: [elsewhere.endpoint], user_id: user.user_id }, status: 403, code: 'not_authorized', detail: notHome(elsewhere) },
      { args: { endpoints: [guarded.endpoint], user_id: outsider.user_id }, status: 403, code: 'not_authorized', detail: offList },
      { args: { endpoints: [jammed.endpoint], user_id: holderOf(jammed)!.user_id }, status: 409, code: 'lock_jammed', detail: jammedDetail },
      { args: { endpoints: [light.endpoint], user_id: user.user_id }, status: 422, code: 'capability_unsupported', detail: notLock },
    ]);
    await expectCommand(t, server, 'lock_unlock', { user_id: user.user_id }, [
      { device: elsewhere, code: 'not_authorized', error: notHome(elsewhere) },
      { device: locked, patch: { lock: 'unlocked' } },
      { device: light, code: 'capability_unsupported', error: notLock },
    ]);
  });

  t.test('unknown and offline endpoints', async (t) => {
    await expectCommandRules(t, server, 'lock_unlock', { user_id: user.user_id }, { good: locked, patch: { lock: 'unlocked' }, offline });
  });

  t.test('arguments: a user id is required', async (t) => {
    await expectInvalid(t, server, 'lock_unlock', [{ endpoints: [locked.endpoint] }, { endpoints: [locked.endpoint], user_id: '' }, { user_id: user.user_id }]);
  });
});
