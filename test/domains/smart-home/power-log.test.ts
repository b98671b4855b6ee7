import t from 'tap';
import { MAX_POWER_STEPS } from '../../../domains/smart-home/energy.js';
import { startServer } from '../../helpers/server.js';
import { online } from './control.js';
import { findDevice } from './helpers.js';

// A device switched on and off without end keeps a bounded draw history, so that its record, the
// session's state and every journal entry that carries it stay bounded too.

t.test('500 commands leave a bounded device record and bounded journal entries', async (t) => {
  const server = await startServer(t);
  const light = findDevice(online('light', 'off'), 'light off');
  const session = await server.newSession({ clock: { start: '2024-05-15T20:00:00.000Z', step_ms: 60_000 } });
  const sizes: number[] = [];
  const refused: number[] = [];
  for (let i = 0; i < 500; i++) {
    const reply = await server.call('smart-home', i % 2 === 0 ? 'power_on' : 'power_off', { endpoints: [light.endpoint] }, session);
    if (reply.status !== 200) refused.push(i);
    if (i === 99 || i === 499) {
      const device = (await server.state(session))['smart-home'].devices[light.endpoint];
      sizes.push(JSON.stringify(device).length);
      t.equal(device.power_log.length, MAX_POWER_STEPS, `after ${i + 1} commands, the last ${MAX_POWER_STEPS} changes of draw`);
      t.equal(device.power_log.at(-1).watts, i % 2 === 0 ? light.rated_watts : light.standby_watts, 'the newest is the current draw');
    }
  }
  t.same(refused, [], 'every command ran');
  t.equal(sizes[1], sizes[0], 'the record is no larger after 500 commands than after 100');
  const journal = await server.journal(session);
  // duration_ms is wall time: its digits vary from run to run, so it is left out of the sizes.
  const entries = journal.map(({ duration_ms: _, ...entry }) => JSON.stringify(entry).length);
  t.ok(Math.max(...entries.slice(-100)) <= Math.max(...entries.slice(100, 200)), 'nor are the journal entries');
});
