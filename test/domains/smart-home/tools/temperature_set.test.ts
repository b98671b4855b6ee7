import t from 'tap';
import type { Device } from '../../../../domains/smart-home/schema.js';
import { startServer } from '../../../helpers/server.js';
import { findDevice } from '../helpers.js';
import { expectCommand, expectCommandRules, expectInvalid, expectRefused, messages, findOffline, online, still } from '../control.js';

/** Setpoint limits per mode as the thermostats document them. */
const LIMITS = {
  heat: { C: [10, 30], F: [50, 86] },
  cool: { C: [16, 32], F: [61, 89] },
  auto: { C: [10, 32], F: [50, 89] },
  eco: { C: [5, 35], F: [41, 95] },
} as const;

const holding = (unit: 'C' | 'F') => (d: Device) => online('thermostat')(d) && d.state.mode !== 'off' && d.state.unit === unit;
const modeOf = (d: Device) => d.state.mode as keyof typeof LIMITS;
const outOfRange = (d: Device, value: number, unit: 'C' | 'F') => {
  const [low, high] = LIMITS[modeOf(d)][unit];
  return `${d.name} (${d.endpoint}) in ${modeOf(d)} mode takes ${low}–${high} °${unit}; ${value} °${unit} is out of range.`;
};

t.test('temperature_set', async (t) => {
  const server = await startServer(t);
  const celsius = findDevice(holding('C'), 'thermostat in °C holding a setpoint');
  const fahrenheit = findDevice(holding('F'), 'thermostat in °F holding a setpoint');
  const off = findDevice((d) => online('thermostat')(d) && d.state.mode === 'off', 'thermostat in mode off');
  const light = findDevice(online('light'), 'light');
  const offline = findOffline(['thermostat']);
  const c21 = celsius.state.target_temperature === 21 ? 22 : 21;

  t.test("in each thermostat's own unit by default, rounded to half degrees C or whole degrees F", async (t) => {
    await expectCommand(t, server, 'temperature_set', { temperature: c21 }, [{ device: celsius, patch: { target_temperature: c21 } }]);
    await expectCommand(t, server, 'temperature_set', { temperature: 21.3 }, [{ device: celsius, patch: { target_temperature: 21.5 } }]);
    await expectCommand(t, server, 'temperature_set', { temperature: 21.2 }, [{ device: celsius, patch: { target_temperature: 21 } }]);
    await expectCommand(t, server, 'temperature_set', { temperature: 70.4 }, [{ device: fahrenheit, patch: { target_temperature: 70 } }]);
  });

  t.test('a unit given converts to each thermostat’s own', async (t) => {
    await expectCommand(t, server, 'temperature_set', { temperature: 21, unit: 'C' }, [
      { device: celsius, patch: { target_temperature: 21 } },
      { device: fahrenheit, patch: { target_temperature: 70 } },
    ]);
    await expectCommand(t, server, 'temperature_set', { temperature: 70, unit: 'F' }, [{ device: celsius, patch: { target_temperature: 21 } }]);
  });

  t.test("a converted setpoint stays within the thermostat's own limits", async (t) => {
    const session = await still(server);
    t.equal((await server.call('smart-home', 'mode_set', { endpoints: [fahrenheit.endpoint], mode: 'cool' }, session)).status, 200);
    const reply = await server.call('smart-home', 'temperature_set', { endpoints: [fahrenheit.endpoint], temperature: 32, unit: 'C' }, session);
    t.equal(reply.body.results[0].state.target_temperature, 89, '32 °C is 89.6 °F, above the 89 °F limit of cool');
  });

  t.test("limits of the thermostat's mode, in the unit the call used; mode off holds no setpoint; thermostats only", async (t) => {
    const noMode = `${off.name} (${off.endpoint}) is in mode 'off' and holds no setpoint: set a mode with mode_set first.`;
    const notThermostat = messages.unsupported(light, 'a temperature setpoint');
    const [, highC] = LIMITS[modeOf(celsius)].C;
    const [lowF] = LIMITS[modeOf(fahrenheit)].F;
    await expectRefused(t, server, 'temperature_set', [
      { args: { endpoints: [celsius.endpoint], temperature: highC + 0.5 }, status: 422, code: 'out_of_range', detail: outOfRange(celsius, highC + 0.5, 'C') },
      { args: { endpoints: [fahrenheit.endpoint], temperature: lowF - 1 }, status: 422, code: 'out_of_range', detail: outOfRange(fahrenheit, lowF - 1, 'F') },
      { args: { endpoints: [fahrenheit.endpoint], temperature: 40, unit: 'C' }, status: 422, code: 'out_of_range', detail: outOfRange(fahrenheit, 40, 'C') },
      { args: { endpoints: [off.endpoint], temperature: 21 }, status: 409, code: 'thermostat_off', detail: noMode },
      { args: { endpoints: [light.endpoint], temperature: 21 }, status: 422, code: 'capability_unsupported', detail: notThermostat },
    ]);
    const refused = await server.call('smart-home', 'temperature_set', { endpoints: [celsius.endpoint], temperature: 40 }, await still(server));
    t.match(refused.body, { min: LIMITS[modeOf(celsius)].C[0], max: highC, unit: 'C' }, 'the limits come with the refusal');
    await expectCommand(t, server, 'temperature_set', { temperature: 21, unit: 'C' }, [
      { device: off, code: 'thermostat_off', error: noMode },
      { device: celsius, patch: { target_temperature: 21 } },
      { device: light, code: 'capability_unsupported', error: notThermostat },
    ]);
  });

  t.test('unknown and offline endpoints', async (t) => {
    await expectCommandRules(t, server, 'temperature_set', { temperature: c21 }, { good: celsius, patch: { target_temperature: c21 }, offline });
  });

  t.test('arguments', async (t) => {
    const endpoints = [celsius.endpoint];
    await expectInvalid(t, server, 'temperature_set', [
      { endpoints },
      { endpoints, temperature: '21' },
      { endpoints, temperature: 21, unit: 'K' },
      { endpoints, temperature: 1000 },
    ]);
  });
});
