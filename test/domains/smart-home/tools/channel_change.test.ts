import t from 'tap';
import { LINEUP } from '../../../../domains/smart-home/channels.js';
import { startServer } from '../../../helpers/server.js';
import { findDevice } from '../helpers.js';
import { expectCommand, expectCommandRules, expectInvalid, expectRefused, messages, findOffline, online } from '../control.js';

t.test('channel_change', async (t) => {
  const server = await startServer(t);
  const tv = findDevice((d) => online('tv', 'on')(d) && d.state.channel !== 24, 'TV on, not on channel 24');
  const watching = findDevice((d) => online('tv', 'on')(d) && !!d.state.playback && d.endpoint !== tv.endpoint, 'TV playing something');
  const dark = findDevice(online('tv', 'off'), 'TV off');
  const speaker = findDevice(online('speaker', 'on'), 'speaker on');
  const offline = findOffline(['tv']);
  const off = messages.off(dark, 'changing its channel');
  const noChannels = messages.unsupported(speaker, 'channels');
  const unknown = (channel: string) => `No channel ${channel} in the lineup. The lineup: ${LINEUP}.`;

  t.test('tunes by number, numeric string or name; what was playing ends', async (t) => {
    t.ok(LINEUP.includes('24 CNN') && LINEUP.includes('41 Food Network'), 'the lineup pairs numbers and names');
    await expectCommand(t, server, 'channel_change', { channel: 24 }, [{ device: tv, patch: { channel: 24, playback: null } }]);
    await expectCommand(t, server, 'channel_change', { channel: ' 24 ' }, [{ device: tv, patch: { channel: 24, playback: null } }]);
    await expectCommand(t, server, 'channel_change', { channel: 'food network' }, [
      { device: tv, patch: { channel: 41, playback: null } },
      { device: watching, patch: { channel: 41, playback: null } },
    ]);
    await expectCommand(t, server, 'channel_change', { channel: 'FoodNetwork' }, [{ device: tv, patch: { channel: 41, playback: null } }]);
  });

  t.test('a channel outside the lineup is refused whole, naming the lineup and near names', async (t) => {
    await expectRefused(t, server, 'channel_change', [
      { args: { endpoints: [tv.endpoint], channel: 3 }, status: 404, code: 'channel_not_found', detail: unknown('3') },
      { args: { endpoints: [tv.endpoint], channel: '999' }, status: 404, code: 'channel_not_found', detail: unknown("'999'") },
      { args: { endpoints: [tv.endpoint], channel: 'Bogus TV' }, status: 404, code: 'channel_not_found', detail: unknown("'Bogus TV'") },
      { args: { endpoints: [tv.endpoint], channel: '__proto__' }, status: 404, code: 'channel_not_found', detail: unknown("'__proto__'") },
      {
        args: { endpoints: [tv.endpoint], channel: 'Food Netwrk' },
        status: 404,
        code: 'channel_not_found',
        detail: `No channel 'Food Netwrk' in the lineup. Did you mean 'Food Network'? The lineup: ${LINEUP}.`,
      },
    ]);
  });

  t.test('TVs only, and on', async (t) => {
    await expectRefused(t, server, 'channel_change', [
      { args: { endpoints: [dark.endpoint], channel: 24 }, status: 409, code: 'device_off', detail: off },
      { args: { endpoints: [speaker.endpoint], channel: 24 }, status: 422, code: 'capability_unsupported', detail: noChannels },
    ]);
    await expectCommand(t, server, 'channel_change', { channel: 'CNN' }, [
      { device: speaker, code: 'capability_unsupported', error: noChannels },
      { device: dark, code: 'device_off', error: off },
      { device: tv, patch: { channel: 24, playback: null } },
    ]);
  });

  t.test('unknown and offline endpoints', async (t) => {
    await expectCommandRules(t, server, 'channel_change', { channel: 24 }, { good: tv, patch: { channel: 24, playback: null }, offline });
  });

  t.test('arguments', async (t) => {
    const endpoints = [tv.endpoint];
    await expectInvalid(t, server, 'channel_change', [
      { endpoints },
      { endpoints, channel: 0 },
      { endpoints, channel: 1000 },
      { endpoints, channel: 2.5 },
      { endpoints, channel: '' },
      { endpoints, channel: null },
    ]);
  });
});
