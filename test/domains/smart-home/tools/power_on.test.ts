import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { findDevice } from '../helpers.js';
import { diffOf, expectCommand, expectCommandRules, expectInvalid, expectRefused, messages, findOffline, online, still } from '../control.js';

const THERMOSTAT = 'power on and off: set its mode with mode_set (mode off turns it off)';

t.test('power_on', async (t) => {
  const server = await startServer(t);
  const light = findDevice(online('light', 'off'), 'light off');
  const plug = findDevice(online('plug', 'off'), 'plug off');
  const speaker = findDevice(online('speaker', 'off'), 'speaker off');
  const lit = findDevice(online('light', 'on'), 'light on');
  const thermostat = findDevice(online('thermostat'), 'thermostat');
  const lock = findDevice(online('lock'), 'lock');
  const offline = findOffline(['light', 'plug', 'dimmer']);

  t.test('turns devices on: state, hub view and draw; one already on answers ok unchanged', async (t) => {
    const session = await expectCommand(t, server, 'power_on', {}, [
      { device: light, patch: { power: 'on' } },
      { device: plug, patch: { power: 'on' } },
      { device: speaker, patch: { power: 'on' } },
      { device: lit, patch: {} },
    ]);
    const after = (await server.state(session))['smart-home'].devices[light.endpoint];
    t.equal(after.state.power, 'on');
    t.same(after.hub, { state: after.state, synced_at: '2024-05-15T20:00:00.000Z' }, "the hub's view follows");
    t.same(after.power_log.at(-1), { at: '2024-05-15T20:00:00.000Z', watts: light.rated_watts }, 'a light on draws its rated watts from now');
    t.same(after.power_log.slice(0, -1), light.power_log, 'the history before now is kept');
  });

  t.test('devices without power control fail; all failing is refused as a whole', async (t) => {
    await expectRefused(t, server, 'power_on', [
      { args: { endpoints: [thermostat.endpoint] }, status: 422, code: 'capability_unsupported', detail: messages.unsupported(thermostat, THERMOSTAT) },
      {
        args: { endpoints: [lock.endpoint, thermostat.endpoint] },
        status: 422,
        code: 'capability_unsupported',
        detail: messages.unsupported(lock, 'power on and off'),
        errors: [
          { endpoint: lock.endpoint, code: 'capability_unsupported', error: messages.unsupported(lock, 'power on and off') },
          { endpoint: thermostat.endpoint, code: 'capability_unsupported', error: messages.unsupported(thermostat, THERMOSTAT) },
        ],
      },
    ]);
    await expectCommand(t, server, 'power_on', {}, [
      { device: thermostat, code: 'capability_unsupported', error: messages.unsupported(thermostat, THERMOSTAT) },
      { device: light, patch: { power: 'on' } },
    ]);
  });

  t.test('unknown and offline endpoints', async (t) => {
    await expectCommandRules(t, server, 'power_on', {}, { good: light, patch: { power: 'on' }, offline });
    const near = await server.call('smart-home', 'power_on', { endpoints: [`${light.endpoint}x`] }, await still(server));
    t.equal(near.status, 404);
    t.match(
      near.body.detail,
      new RegExp(`^Unknown endpoint '${light.endpoint}x'\\. Did you mean .*'${light.endpoint}'`),
      'a near miss names the endpoint meant',
    );
  });

  t.test('arguments: 1 to 25 endpoints, no repeats, nothing else', async (t) => {
    await expectInvalid(t, server, 'power_on', [
      {},
      { endpoints: [] },
      { endpoints: light.endpoint },
      { endpoints: [light.endpoint, light.endpoint] },
      { endpoints: Array.from({ length: 26 }, (_, i) => `Lamp_${i}`) },
      { endpoints: [light.endpoint], power: 'on' },
    ]);
  });

  t.test('a repeat with the same idempotency key is answered once', async (t) => {
    const session = await still(server);
    const args = { endpoints: [light.endpoint], idempotency_key: 'on-1' };
    const first = await server.call('smart-home', 'power_on', args, session);
    const again = await server.call('smart-home', 'power_on', args, session);
    t.same(again.body, first.body);
    t.equal((await diffOf(server, session)).length, 1);
  });
});
