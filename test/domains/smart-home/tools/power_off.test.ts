import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { findDevice } from '../helpers.js';
import { expectCommand, expectCommandRules, expectInvalid, expectRefused, messages, findOffline, online } from '../control.js';

t.test('power_off', async (t) => {
  const server = await startServer(t);
  const light = findDevice(online('light', 'on'), 'light on');
  const dimmer = findDevice(online('dimmer', 'on'), 'dimmer on');
  const dark = findDevice(online('light', 'off'), 'light off');
  const playing = findDevice((d) => d.online && d.state.power === 'on' && d.state.playback?.status === 'playing', 'speaker or TV playing');
  const quiet = findDevice(
    (d) => d.online && d.state.power === 'on' && ['speaker', 'tv'].includes(d.type) && !d.state.playback,
    'speaker or TV on without playback',
  );
  const thermostat = findDevice(online('thermostat'), 'thermostat');
  const blind = findDevice(online('blind'), 'blind');
  const offline = findOffline(['light', 'plug', 'dimmer']);

  t.test('turns devices off, keeping their levels; one already off answers ok unchanged', async (t) => {
    await expectCommand(t, server, 'power_off', {}, [
      { device: light, patch: { power: 'off' } },
      { device: dimmer, patch: { power: 'off' } },
      { device: dark, patch: {} },
    ]);
  });

  t.test('turning off a player stops its playback, queue kept; a player with nothing loaded just turns off', async (t) => {
    const session = await expectCommand(t, server, 'power_off', {}, [
      { device: playing, patch: { power: 'off', playback: { ...playing.state.playback!, status: 'stopped' } } },
      { device: quiet, patch: { power: 'off' } },
    ]);
    const after = (await server.state(session))['smart-home'].devices[playing.endpoint];
    t.equal(after.state.playback.status, 'stopped');
    t.equal(after.power_log.at(-1).watts, playing.standby_watts, 'an idle player off draws its standby watts');
  });

  t.test('devices without power control fail; all failing is refused as a whole', async (t) => {
    const what = 'power on and off: set its mode with mode_set (mode off turns it off)';
    await expectRefused(t, server, 'power_off', [
      { args: { endpoints: [thermostat.endpoint] }, status: 422, code: 'capability_unsupported', detail: messages.unsupported(thermostat, what) },
      { args: { endpoints: [blind.endpoint] }, status: 422, code: 'capability_unsupported', detail: messages.unsupported(blind, 'power on and off') },
    ]);
    await expectCommand(t, server, 'power_off', {}, [
      { device: light, patch: { power: 'off' } },
      { device: blind, code: 'capability_unsupported', error: messages.unsupported(blind, 'power on and off') },
      { device: offline, code: 'device_offline', error: messages.offline(offline) },
    ]);
  });

  t.test('unknown and offline endpoints', async (t) => {
    await expectCommandRules(t, server, 'power_off', {}, { good: light, patch: { power: 'off' }, offline });
  });

  t.test('arguments', async (t) => {
    await expectInvalid(t, server, 'power_off', [
      {},
      { endpoints: [] },
      { endpoints: [light.endpoint, light.endpoint] },
      { endpoints: [light.endpoint], force: true },
    ]);
  });
});
