import t from 'tap';
import type { Notification } from '../../../../domains/smart-home/schema.js';
import { startServer } from '../../../helpers/server.js';
import { diffOf, expectInvalid, expectRefused, still } from '../control.js';
import { smartHomeFixture } from '../helpers.js';

const newestFirst = (a: Notification, b: Notification) =>
  a.created_at !== b.created_at ? (a.created_at < b.created_at ? 1 : -1) : a.notification_id < b.notification_id ? 1 : -1;

t.test('get_notifications', async (t) => {
  const server = await startServer(t);
  const db = smartHomeFixture();
  const all = Object.values(db.notifications);
  // A person with messages of their own while another member of the home also has some.
  const user = Object.values(db.users).find(
    (u) => all.some((n) => n.user_id === u.user_id) && all.some((n) => n.home_id === u.home_id && n.user_id !== null && n.user_id !== u.user_id),
  )!;
  const theirs = all.filter((n) => n.home_id === user.home_id && (n.user_id === null || n.user_id === user.user_id)).sort(newestFirst);
  const get = async (args: Record<string, unknown>) => {
    const reply = await server.call('smart-home', 'get_notifications', { user_id: user.user_id, ...args });
    t.equal(reply.status, 200, JSON.stringify(args));
    return reply.body;
  };

  t.test("the person's and the whole home's messages, newest first; not another member's, nor another home's", async (t) => {
    const session = await still(server);
    const reply = await server.call('smart-home', 'get_notifications', { user_id: user.user_id, limit: 100 }, session);
    t.same(reply.body, { total: theirs.length, notifications: theirs.slice(0, 100) });
    t.ok(theirs.some((n) => n.user_id === null) && theirs.some((n) => n.user_id === user.user_id), 'both kinds');
    t.same(await diffOf(server, session), [], 'changes nothing, marks nothing read');
  });

  t.test('20 by default; a category; unread only', async (t) => {
    t.same(await get({}), { total: theirs.length, notifications: theirs.slice(0, 20) });
    const security = theirs.filter((n) => n.category === 'security');
    t.same(await get({ category: 'security', limit: 3 }), { total: security.length, notifications: security.slice(0, 3) });
    const unread = theirs.filter((n) => !n.read);
    t.ok(unread.length > 0 && unread.length < theirs.length, 'some read, some not');
    t.same(await get({ unread_only: true, limit: 100 }), { total: unread.length, notifications: unread });
    const unreadDevice = unread.filter((n) => n.category === 'device');
    t.same(await get({ unread_only: true, category: 'device', limit: 100 }), { total: unreadDevice.length, notifications: unreadDevice });
  });

  t.test('an unknown user; arguments', async (t) => {
    await expectRefused(t, server, 'get_notifications', [
      { args: { user_id: 'nobody_0000' }, status: 404, code: 'user_not_found', detail: "Unknown user_id 'nobody_0000'." },
    ]);
    await expectInvalid(t, server, 'get_notifications', [
      {},
      { user_id: user.user_id, limit: 0 },
      { user_id: user.user_id, limit: 101 },
      { user_id: user.user_id, category: 'spam' },
      { user_id: user.user_id, unread_only: 'yes' },
      { user_id: user.user_id, home_id: user.home_id },
    ]);
  });
});
