import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { findDevice } from '../helpers.js';
import { expectCommand, expectCommandRules, expectInvalid, expectRefused, messages, findOffline, online } from '../control.js';

t.test('brightness_adjust', async (t) => {
  const server = await startServer(t);
  const dimmer = findDevice((d) => online('dimmer', 'on')(d) && d.state.brightness! >= 20 && d.state.brightness! <= 80, 'dimmer on, between 20 and 80');
  const bulb = findDevice(online('color_bulb', 'on'), 'colour bulb on');
  const dark = findDevice(online('dimmer', 'off'), 'dimmer off');
  const light = findDevice(online('light', 'on'), 'light on');
  const offline = findOffline(['dimmer', 'color_bulb']);
  const level = dimmer.state.brightness!;
  const other = level === 35 ? 36 : 35;

  t.test('an absolute level on every device', async (t) => {
    await expectCommand(t, server, 'brightness_adjust', { brightness: other }, [
      { device: dimmer, patch: { brightness: other } },
      { device: bulb, patch: { brightness: other } },
    ]);
    await expectCommand(t, server, 'brightness_adjust', { brightness: 0 }, [{ device: dimmer, patch: { brightness: 0 } }]);
  });

  t.test("a step from each device's own level, kept within 0–100", async (t) => {
    await expectCommand(t, server, 'brightness_adjust', { step: -10 }, [{ device: dimmer, patch: { brightness: level - 10 } }]);
    await expectCommand(t, server, 'brightness_adjust', { step: 15 }, [{ device: dimmer, patch: { brightness: level + 15 } }]);
    await expectCommand(t, server, 'brightness_adjust', { step: 100 }, [
      { device: dimmer, patch: { brightness: 100 } },
      { device: bulb, patch: { brightness: Math.min(100, bulb.state.brightness! + 100) } },
    ]);
    await expectCommand(t, server, 'brightness_adjust', { step: -100 }, [{ device: dimmer, patch: { brightness: 0 } }]);
  });

  t.test('a device must be on and dimmable; mixed outcomes report per endpoint', async (t) => {
    const off = messages.off(dark, 'dimming it');
    const plain = messages.unsupported(light, 'brightness');
    await expectRefused(t, server, 'brightness_adjust', [
      { args: { endpoints: [dark.endpoint], brightness: 50 }, status: 409, code: 'device_off', detail: off },
      { args: { endpoints: [light.endpoint], step: 10 }, status: 422, code: 'capability_unsupported', detail: plain },
      {
        args: { endpoints: [dark.endpoint, light.endpoint], brightness: 50 },
        status: 409,
        code: 'device_off',
        detail: off,
        errors: [
          { endpoint: dark.endpoint, code: 'device_off', error: off },
          { endpoint: light.endpoint, code: 'capability_unsupported', error: plain },
        ],
      },
    ]);
    await expectCommand(t, server, 'brightness_adjust', { brightness: other }, [
      { device: dark, code: 'device_off', error: off },
      { device: dimmer, patch: { brightness: other } },
      { device: light, code: 'capability_unsupported', error: plain },
    ]);
  });

  t.test('unknown and offline endpoints', async (t) => {
    await expectCommandRules(t, server, 'brightness_adjust', { brightness: other }, { good: dimmer, patch: { brightness: other }, offline });
  });

  t.test('arguments: exactly one of brightness 0–100 or step −100..100, not 0, integers', async (t) => {
    const endpoints = [dimmer.endpoint];
    await expectInvalid(t, server, 'brightness_adjust', [
      { endpoints },
      { endpoints, brightness: 50, step: 10 },
      { endpoints, brightness: 101 },
      { endpoints, brightness: -1 },
      { endpoints, brightness: 50.5 },
      { endpoints, brightness: '50' },
      { endpoints, step: 0 },
      { endpoints, step: 101 },
      { endpoints, step: -101 },
    ]);
  });
});
