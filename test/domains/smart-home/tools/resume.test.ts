import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { expectInvalid, expectRefused, findOffline, messages, NO_DEVICE, online } from '../control.js';
import { findDevice } from '../helpers.js';
import { expectPlayback, player, withStatus } from '../playback.js';

const notPaused = (d: { name: string; endpoint: string }, holding: string) =>
  `${d.name} (${d.endpoint}) is not paused (${holding}): only paused playback resumes; start something with play.`;

t.test('resume', async (t) => {
  const server = await startServer(t);
  const paused = withStatus('paused');
  const other = findDevice((d) => d.online && d.endpoint !== paused.endpoint && d.state.playback?.status === 'paused', 'another player paused');
  const playing = withStatus('playing');
  const idle = player('player on with nothing loaded', (p) => p === null);
  const stopped = findDevice((d) => d.online && d.state.playback?.status === 'stopped', 'player stopped');
  const offline = findOffline(['speaker', 'tv']);
  const plug = findDevice(online('plug'), 'plug');

  t.test('resumes paused playback at the item where it was paused', async (t) => {
    await expectPlayback(t, server, 'resume', {}, [
      { device: paused, patch: { playback: { ...paused.state.playback!, status: 'playing' } } },
      { device: other, patch: { playback: { ...other.state.playback!, status: 'playing' } } },
    ]);
  });

  t.test('mixed: a playing, an idle, an offline device and a plug fail beside one that resumes; only it changes', async (t) => {
    await expectPlayback(t, server, 'resume', {}, [
      { device: playing, code: 'not_paused', error: notPaused(playing, 'its playback is playing') },
      { device: idle, code: 'not_paused', error: notPaused(idle, 'nothing is loaded') },
      { device: paused, patch: { playback: { ...paused.state.playback!, status: 'playing' } } },
      { device: offline, code: 'device_offline', error: messages.offline(offline) },
      { device: plug, code: 'capability_unsupported', error: messages.unsupported(plug, 'media playback') },
    ]);
  });

  t.test('refused as a whole when no device can resume; nothing changes', async (t) => {
    await expectRefused(t, server, 'resume', [
      { args: { endpoints: [playing.endpoint] }, status: 409, code: 'not_paused', detail: notPaused(playing, 'its playback is playing') },
      { args: { endpoints: [stopped.endpoint] }, status: 409, code: 'not_paused', detail: notPaused(stopped, 'its playback is stopped') },
      { args: { endpoints: [idle.endpoint] }, status: 409, code: 'not_paused', detail: notPaused(idle, 'nothing is loaded') },
      { args: { endpoints: [plug.endpoint] }, status: 422, code: 'capability_unsupported', detail: messages.unsupported(plug, 'media playback') },
      {
        args: { endpoints: [offline.endpoint, playing.endpoint] },
        status: 409,
        code: 'device_offline',
        detail: messages.offline(offline),
        errors: [
          { endpoint: offline.endpoint, code: 'device_offline', error: messages.offline(offline) },
          { endpoint: playing.endpoint, code: 'not_paused', error: notPaused(playing, 'its playback is playing') },
        ],
      },
      { args: { endpoints: [NO_DEVICE, paused.endpoint] }, status: 404, code: 'endpoint_not_found', detail: messages.unknown(NO_DEVICE) },
    ]);
  });

  t.test('arguments', async (t) => {
    await expectInvalid(t, server, 'resume', [{}, { endpoints: [] }, { endpoints: [paused.endpoint, paused.endpoint] }, { endpoints: paused.endpoint }]);
  });
});
