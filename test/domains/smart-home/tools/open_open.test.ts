import t from 'tap';
import type { Device } from '../../../../domains/smart-home/schema.js';
import { startServer } from '../../../helpers/server.js';
import { findDevice } from '../helpers.js';
import { expectCommand, expectCommandRules, expectInvalid, expectRefused, messages, findOffline, online } from '../control.js';

const blindAt = (test: (position: number) => boolean) => (d: Device) => online('blind')(d) && test(d.state.position!);
const garage = (door: string) => (d: Device) => online('garage_door')(d) && d.state.door === door;

t.test('open_open', async (t) => {
  const server = await startServer(t);
  const closed = findDevice(
    blindAt((p) => p < 100),
    'blind not fully open',
  );
  const open = findDevice(
    blindAt((p) => p === 100),
    'blind fully open',
  );
  const shut = findDevice(garage('closed'), 'garage door closed');
  const up = findDevice(garage('open'), 'garage door open');
  const light = findDevice(online('light'), 'light');
  const offline = findOffline(['blind', 'garage_door']);
  const notOpening = messages.unsupported(light, 'opening and closing');

  t.test('blinds open fully and garage doors open; what is open already answers ok unchanged', async (t) => {
    await expectCommand(t, server, 'open_open', {}, [
      { device: closed, patch: { position: 100 } },
      { device: shut, patch: { door: 'open' } },
      { device: open, patch: {} },
      { device: up, patch: {} },
    ]);
  });

  t.test('devices that do not open fail; mixed outcomes report per endpoint', async (t) => {
    await expectRefused(t, server, 'open_open', [{ args: { endpoints: [light.endpoint] }, status: 422, code: 'capability_unsupported', detail: notOpening }]);
    await expectCommand(t, server, 'open_open', {}, [
      { device: light, code: 'capability_unsupported', error: notOpening },
      { device: shut, patch: { door: 'open' } },
    ]);
  });

  t.test('unknown and offline endpoints', async (t) => {
    await expectCommandRules(t, server, 'open_open', {}, { good: closed, patch: { position: 100 }, offline });
  });

  t.test('arguments', async (t) => {
    await expectInvalid(t, server, 'open_open', [{}, { endpoints: [] }, { endpoints: [closed.endpoint], position: 100 }]);
  });

  t.test('the description asks for confirmation before opening', async (t) => {
    const listing = (await server.request('GET', '/smart-home/tools')).body.tools.find((tool: { name: string }) => tool.name === 'open_open');
    t.match(listing.description, /explicit "yes" first/);
  });
});
