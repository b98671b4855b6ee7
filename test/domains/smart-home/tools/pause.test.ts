import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { expectInvalid, expectRefused, findOffline, messages, NO_DEVICE, online } from '../control.js';
import { findDevice } from '../helpers.js';
import { expectPlayback, player, withStatus } from '../playback.js';

const notPlaying = (d: { name: string; endpoint: string }, holding: string) =>
  `${d.name} (${d.endpoint}) is not playing (${holding}): there is nothing to pause.`;

t.test('pause', async (t) => {
  const server = await startServer(t);
  const playing = withStatus('playing', 'before_last');
  const other = findDevice((d) => d.online && d.endpoint !== playing.endpoint && d.state.playback?.status === 'playing', 'another player playing');
  const paused = withStatus('paused');
  const idle = player('player on with nothing loaded', (p) => p === null);
  const stopped = findDevice((d) => d.online && d.state.playback?.status === 'stopped', 'player stopped');
  const offline = findOffline(['speaker', 'tv']);
  const light = findDevice(online('light'), 'light');

  t.test('pauses what plays, keeping the queue and the current item', async (t) => {
    await expectPlayback(t, server, 'pause', {}, [
      { device: playing, patch: { playback: { ...playing.state.playback!, status: 'paused' } } },
      { device: other, patch: { playback: { ...other.state.playback!, status: 'paused' } } },
    ]);
  });

  t.test('mixed: a paused, an idle, an offline device and a light fail beside one that pauses; only it changes', async (t) => {
    await expectPlayback(t, server, 'pause', {}, [
      { device: paused, code: 'not_playing', error: notPlaying(paused, 'its playback is paused') },
      { device: playing, patch: { playback: { ...playing.state.playback!, status: 'paused' } } },
      { device: idle, code: 'not_playing', error: notPlaying(idle, 'nothing is loaded') },
      { device: offline, code: 'device_offline', error: messages.offline(offline) },
      { device: light, code: 'capability_unsupported', error: messages.unsupported(light, 'media playback') },
    ]);
  });

  t.test('refused as a whole when no device can pause; nothing changes', async (t) => {
    await expectRefused(t, server, 'pause', [
      { args: { endpoints: [paused.endpoint] }, status: 409, code: 'not_playing', detail: notPlaying(paused, 'its playback is paused') },
      { args: { endpoints: [stopped.endpoint] }, status: 409, code: 'not_playing', detail: notPlaying(stopped, 'its playback is stopped') },
      {
        args: { endpoints: [idle.endpoint, light.endpoint] },
        status: 409,
        code: 'not_playing',
        detail: notPlaying(idle, 'nothing is loaded'),
        errors: [
          { endpoint: idle.endpoint, code: 'not_playing', error: notPlaying(idle, 'nothing is loaded') },
          { endpoint: light.endpoint, code: 'capability_unsupported', error: messages.unsupported(light, 'media playback') },
        ],
      },
      { args: { endpoints: [offline.endpoint] }, status: 409, code: 'device_offline', detail: messages.offline(offline) },
      { args: { endpoints: [playing.endpoint, NO_DEVICE] }, status: 404, code: 'endpoint_not_found', detail: messages.unknown(NO_DEVICE) },
    ]);
  });

  t.test('arguments', async (t) => {
    await expectInvalid(t, server, 'pause', [{}, { endpoints: [] }, { endpoints: [playing.endpoint, playing.endpoint] }, { endpoint: playing.endpoint }]);
  });
});
