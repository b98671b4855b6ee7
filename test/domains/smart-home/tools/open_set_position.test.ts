import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { findDevice } from '../helpers.js';
import { expectCommand, expectCommandRules, expectInvalid, expectRefused, findDevices, messages, findOffline, online } from '../control.js';

t.test('open_set_position', async (t) => {
  const server = await startServer(t);
  const blinds = findDevices((d) => online('blind')(d) && d.state.position !== 35, 2, 'blinds');
  const garage = findDevice(online('garage_door'), 'garage door');
  const light = findDevice(online('light'), 'light');
  const offline = findOffline(['blind']);
  const onlyOpens = messages.unsupported(garage, 'a position: it only opens or closes (open_open, open_close)');
  const noPosition = messages.unsupported(light, 'a position');

  t.test('moves blinds to the position, 0 closed to 100 open', async (t) => {
    await expectCommand(
      t,
      server,
      'open_set_position',
      { position: 35 },
      blinds.map((device) => ({ device, patch: { position: 35 } })),
    );
    await expectCommand(t, server, 'open_set_position', { position: 0 }, [{ device: blinds[0]!, patch: { position: 0 } }]);
    await expectCommand(t, server, 'open_set_position', { position: 100 }, [{ device: blinds[0]!, patch: { position: 100 } }]);
  });

  t.test('blinds only: a garage door only opens or closes', async (t) => {
    await expectRefused(t, server, 'open_set_position', [
      { args: { endpoints: [garage.endpoint], position: 50 }, status: 422, code: 'capability_unsupported', detail: onlyOpens },
      { args: { endpoints: [light.endpoint], position: 50 }, status: 422, code: 'capability_unsupported', detail: noPosition },
    ]);
    await expectCommand(t, server, 'open_set_position', { position: 35 }, [
      { device: garage, code: 'capability_unsupported', error: onlyOpens },
      { device: blinds[0]!, patch: { position: 35 } },
    ]);
  });

  t.test('unknown and offline endpoints', async (t) => {
    await expectCommandRules(t, server, 'open_set_position', { position: 35 }, { good: blinds[0]!, patch: { position: 35 }, offline });
  });

  t.test('arguments: a whole percentage', async (t) => {
    const endpoints = [blinds[0]!.endpoint];
    await expectInvalid(t, server, 'open_set_position', [
      { endpoints },
      { endpoints, position: 101 },
      { endpoints, position: -1 },
      { endpoints, position: 50.5 },
      { endpoints, position: '50' },
    ]);
  });
});
