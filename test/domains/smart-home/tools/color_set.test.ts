import t from 'tap';
import type { Device } from '../../../../domains/smart-home/schema.js';
import { COLOR_NAMES } from '../../../../domains/smart-home/colors.js';
import { startServer } from '../../../helpers/server.js';
import { findDevice } from '../helpers.js';
import { expectCommand, expectCommandRules, expectInvalid, expectRefused, findDevices, messages, findOffline, online } from '../control.js';

t.test('color_set', async (t) => {
  const server = await startServer(t);
  const [bulb, second] = findDevices(online('color_bulb', 'on'), 2, 'colour bulbs on') as [Device, Device];
  const dark = findDevice(online('color_bulb', 'off'), 'colour bulb off');
  const dimmer = findDevice(online('dimmer', 'on'), 'dimmer on');
  const offline = findOffline(['color_bulb']);
  const unknown = (color: string) =>
    `Unknown colour '${color}'. Give a hex code '#RRGGBB' (e.g. '#FF0000') or one of these names: ${Object.keys(COLOR_NAMES).join(', ')}.`;

  t.test('a hex code in any case, stored in upper case, on several bulbs; brightness kept', async (t) => {
    await expectCommand(t, server, 'color_set', { color: '#1a2B3c' }, [
      { device: bulb, patch: { color: '#1A2B3C' } },
      { device: second, patch: { color: '#1A2B3C' } },
    ]);
  });

  t.test('a colour name, whatever its case, spaces or hyphens', async (t) => {
    t.equal(COLOR_NAMES['warm white'], '#FFA957');
    t.equal(COLOR_NAMES['red'], '#FF0000');
    await expectCommand(t, server, 'color_set', { color: 'Warm-White' }, [{ device: bulb, patch: { color: '#FFA957' } }]);
    await expectCommand(t, server, 'color_set', { color: ' RED ' }, [{ device: bulb, patch: { color: '#FF0000' } }]);
    await expectCommand(t, server, 'color_set', { color: 'skyblue' }, [{ device: bulb, patch: { color: '#87CEEB' } }]);
  });

  t.test('an unknown colour is refused whole, naming the colours; bulbs must be on and coloured', async (t) => {
    const off = messages.off(dark, 'changing its colour');
    const white = messages.unsupported(dimmer, 'colour');
    await expectRefused(t, server, 'color_set', [
      { args: { endpoints: [bulb.endpoint], color: 'plaid' }, status: 422, code: 'unknown_color', detail: unknown('plaid') },
      { args: { endpoints: [bulb.endpoint], color: '#12345' }, status: 422, code: 'unknown_color', detail: unknown('#12345') },
      { args: { endpoints: [bulb.endpoint], color: '__proto__' }, status: 422, code: 'unknown_color', detail: unknown('__proto__') },
      { args: { endpoints: [dark.endpoint], color: 'blue' }, status: 409, code: 'device_off', detail: off },
      { args: { endpoints: [dimmer.endpoint], color: 'blue' }, status: 422, code: 'capability_unsupported', detail: white },
    ]);
    await expectCommand(t, server, 'color_set', { color: 'blue' }, [
      { device: dimmer, code: 'capability_unsupported', error: white },
      { device: bulb, patch: { color: '#0000FF' } },
      { device: dark, code: 'device_off', error: off },
    ]);
  });

  t.test('unknown and offline endpoints', async (t) => {
    await expectCommandRules(t, server, 'color_set', { color: 'green' }, { good: bulb, patch: { color: '#00FF00' }, offline });
  });

  t.test('arguments', async (t) => {
    await expectInvalid(t, server, 'color_set', [
      { endpoints: [bulb.endpoint] },
      { endpoints: [bulb.endpoint], color: '' },
      { endpoints: [bulb.endpoint], color: 0xff0000 },
    ]);
  });
});
