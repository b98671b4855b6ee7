import t from 'tap';
import volumeAdjust, { VOLUME_ABSOLUTE_PHRASES } from '../../../../domains/smart-home/tools/volume_adjust.js';
import { startServer } from '../../../helpers/server.js';
import { findDevice } from '../helpers.js';
import { expectCommand, expectCommandRules, expectInvalid, expectRefused, messages, findOffline, online } from '../control.js';

t.test('volume_adjust', async (t) => {
  const server = await startServer(t);
  const speaker = findDevice((d) => online('speaker', 'on')(d) && d.state.volume! >= 10 && d.state.volume! <= 80, 'speaker on, volume 10–80');
  const tv = findDevice(online('tv', 'on'), 'TV on');
  const quiet = findDevice(online('speaker', 'off'), 'speaker off');
  const plug = findDevice(online('plug', 'on'), 'plug on');
  const offline = findOffline(['speaker', 'tv']);
  const up = speaker.state.volume! + 10;
  const off = messages.off(quiet, 'setting its volume');
  const noVolume = messages.unsupported(plug, 'volume');

  t.test('sets the absolute level on every device: "up by 10" is the current level plus 10', async (t) => {
    await expectCommand(t, server, 'volume_adjust', { volume: up }, [
      { device: speaker, patch: { volume: up } },
      { device: tv, patch: { volume: up } },
    ]);
    await expectCommand(t, server, 'volume_adjust', { volume: 0 }, [{ device: speaker, patch: { volume: 0 } }]);
  });

  t.test('the listing says the level is absolute, in phrases the ambiguous_doc hazard can remove', async (t) => {
    const listed = (await server.request('GET', '/smart-home/tools')).body.tools.find((tool: { name: string }) => tool.name === 'volume_adjust');
    t.ok(listed.description.includes(VOLUME_ABSOLUTE_PHRASES[0]));
    t.ok(listed.input_schema.properties.volume.description.includes(VOLUME_ABSOLUTE_PHRASES[1]));
    t.match(volumeAdjust.description, 'to turn it up by 10 from 30, send 40');
  });

  t.test('devices must be on and have a volume', async (t) => {
    await expectRefused(t, server, 'volume_adjust', [
      { args: { endpoints: [quiet.endpoint], volume: 30 }, status: 409, code: 'device_off', detail: off },
      { args: { endpoints: [plug.endpoint], volume: 30 }, status: 422, code: 'capability_unsupported', detail: noVolume },
      {
        args: { endpoints: [plug.endpoint, quiet.endpoint], volume: 30 },
        status: 422,
        code: 'capability_unsupported',
        detail: noVolume,
        errors: [
          { endpoint: plug.endpoint, code: 'capability_unsupported', error: noVolume },
          { endpoint: quiet.endpoint, code: 'device_off', error: off },
        ],
      },
    ]);
    await expectCommand(t, server, 'volume_adjust', { volume: up }, [
      { device: quiet, code: 'device_off', error: off },
      { device: speaker, patch: { volume: up } },
      { device: plug, code: 'capability_unsupported', error: noVolume },
    ]);
  });

  t.test('unknown and offline endpoints', async (t) => {
    await expectCommandRules(t, server, 'volume_adjust', { volume: up }, { good: speaker, patch: { volume: up }, offline });
  });

  t.test('arguments: a whole percentage', async (t) => {
    const endpoints = [speaker.endpoint];
    await expectInvalid(t, server, 'volume_adjust', [
      { endpoints },
      { endpoints, volume: 101 },
      { endpoints, volume: -1 },
      { endpoints, volume: 40.5 },
      { endpoints, volume: '40' },
      { endpoints, step: 10 },
    ]);
  });
});
