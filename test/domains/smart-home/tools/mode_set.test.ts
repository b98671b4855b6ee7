import t from 'tap';
import type { Device } from '../../../../domains/smart-home/schema.js';
import { startServer } from '../../../helpers/server.js';
import { findDevice } from '../helpers.js';
import { expectCommand, expectCommandRules, expectInvalid, expectRefused, messages, findOffline, online, still } from '../control.js';

const inMode = (mode: string) => (d: Device) => online('thermostat')(d) && d.state.mode === mode;

t.test('mode_set', async (t) => {
  const server = await startServer(t);
  const holding = findDevice((d) => {
    const target = d.state.target_temperature!;
    return online('thermostat')(d) && d.state.mode !== 'off' && (d.state.unit === 'C' ? target >= 16 && target <= 30 : target >= 61 && target <= 86);
  }, 'thermostat holding 16–30 °C or 61–86 °F');
  const off = findDevice(inMode('off'), 'thermostat in mode off');
  const light = findDevice(online('light'), 'light');
  const offline = findOffline(['thermostat']);
  const other = holding.state.mode === 'cool' ? 'heat' : 'cool';

  t.test('a new mode keeps a setpoint within its limits; off turns a thermostat off and keeps the setpoint', async (t) => {
    const session = await expectCommand(t, server, 'mode_set', { mode: other }, [{ device: holding, patch: { mode: other } }]);
    const after = (await server.state(session))['smart-home'].devices[holding.endpoint];
    t.not(after.power_log.at(-1).watts, holding.power_log.at(-1)!.watts, 'another mode draws otherwise');
    await expectCommand(t, server, 'mode_set', { mode: 'off' }, [
      { device: holding, patch: { mode: 'off' } },
      { device: off, patch: {} },
    ]);
    await expectCommand(t, server, 'mode_set', { mode: 'eco' }, [
      { device: off, patch: { mode: 'eco' } },
      { device: holding, patch: { mode: 'eco' } },
    ]);
  });

  t.test("a setpoint outside the new mode's limits moves to the nearest limit", async (t) => {
    const session = await still(server);
    const unit = holding.state.unit!;
    const [low, high] = unit === 'C' ? [12, 16] : [54, 61];
    await server.call('smart-home', 'mode_set', { endpoints: [holding.endpoint], mode: 'heat' }, session);
    t.equal((await server.call('smart-home', 'temperature_set', { endpoints: [holding.endpoint], temperature: low }, session)).status, 200);
    const cool = await server.call('smart-home', 'mode_set', { endpoints: [holding.endpoint], mode: 'cool' }, session);
    t.match(cool.body.results[0].state, { mode: 'cool', target_temperature: high }, `${low} °${unit} is below cool's ${high} °${unit}`);
    const stored = (await server.state(session))['smart-home'].devices[holding.endpoint];
    t.equal(stored.state.target_temperature, high);
    t.equal(stored.hub.state.target_temperature, high, "the hub's view follows");
  });

  t.test('thermostats only; mixed outcomes report per endpoint', async (t) => {
    const notThermostat = messages.unsupported(light, 'a thermostat mode');
    await expectRefused(t, server, 'mode_set', [
      { args: { endpoints: [light.endpoint], mode: 'heat' }, status: 422, code: 'capability_unsupported', detail: notThermostat },
    ]);
    await expectCommand(t, server, 'mode_set', { mode: 'eco' }, [
      { device: light, code: 'capability_unsupported', error: notThermostat },
      { device: holding, patch: { mode: 'eco' } },
      { device: offline, code: 'device_offline', error: messages.offline(offline) },
    ]);
  });

  t.test('unknown and offline endpoints', async (t) => {
    await expectCommandRules(t, server, 'mode_set', { mode: 'eco' }, { good: holding, patch: { mode: 'eco' }, offline });
  });

  t.test('arguments', async (t) => {
    await expectInvalid(t, server, 'mode_set', [
      { endpoints: [holding.endpoint] },
      { endpoints: [holding.endpoint], mode: 'fan' },
      { endpoints: [holding.endpoint], mode: 'HEAT' },
    ]);
  });
});
