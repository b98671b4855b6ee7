import t from 'tap';
import type { Device } from '../../../../domains/smart-home/schema.js';
import { startServer } from '../../../helpers/server.js';
import { findDevice } from '../helpers.js';
import { expectCommand, expectCommandRules, expectInvalid, expectRefused, messages, findOffline, online } from '../control.js';

const blindAt = (test: (position: number) => boolean) => (d: Device) => online('blind')(d) && test(d.state.position!);
const garage = (door: string, obstructed: boolean) => (d: Device) => online('garage_door')(d) && d.state.door === door && !!d.state.obstructed === obstructed;

t.test('open_close', async (t) => {
  const server = await startServer(t);
  const open = findDevice(
    blindAt((p) => p > 0),
    'blind open',
  );
  const closed = findDevice(
    blindAt((p) => p === 0),
    'blind closed',
  );
  const up = findDevice(garage('open', false), 'garage door open, clear');
  const blocked = findDevice(garage('open', true), 'garage door open, obstructed');
  const shut = findDevice((d) => online('garage_door')(d) && d.state.door === 'closed', 'garage door closed');
  const tv = findDevice(online('tv'), 'TV');
  const offline = findOffline(['blind', 'garage_door']);
  const obstructed =
    `${blocked.name} (${blocked.endpoint}) cannot close: ` +
    `its obstruction sensor is blocked. ` +
    `Clear the doorway first; retrying will not help until then.`;
  const notClosing = messages.unsupported(tv, 'opening and closing');

  t.test('blinds close fully and garage doors close; what is closed already answers ok unchanged', async (t) => {
    await expectCommand(t, server, 'open_close', {}, [
      { device: open, patch: { position: 0 } },
      { device: up, patch: { door: 'closed' } },
      { device: closed, patch: {} },
      { device: shut, patch: {} },
    ]);
  });

  t.test('a garage door will not close on an obstruction; devices that do not close fail', async (t) => {
    await expectRefused(t, server, 'open_close', [
      { args: { endpoints: [blocked.endpoint] }, status: 409, code: 'obstructed', detail: obstructed },
      { args: { endpoints: [tv.endpoint] }, status: 422, code: 'capability_unsupported', detail: notClosing },
    ]);
    await expectCommand(t, server, 'open_close', {}, [
      { device: up, patch: { door: 'closed' } },
      { device: blocked, code: 'obstructed', error: obstructed },
      { device: tv, code: 'capability_unsupported', error: notClosing },
      { device: open, patch: { position: 0 } },
    ]);
  });

  t.test('unknown and offline endpoints', async (t) => {
    await expectCommandRules(t, server, 'open_close', {}, { good: open, patch: { position: 0 }, offline });
  });

  t.test('arguments', async (t) => {
    await expectInvalid(t, server, 'open_close', [{}, { endpoints: [] }, { endpoints: [open.endpoint, open.endpoint] }]);
  });
});
