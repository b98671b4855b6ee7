import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { expectInvalid, expectRefused, findOffline, messages, NO_DEVICE, online } from '../control.js';
import { findDevice } from '../helpers.js';
import { expectPlayback, player, withStatus } from '../playback.js';

const nothing = (d: { name: string; endpoint: string }, holding: string) =>
  `${d.name} (${d.endpoint}) has nothing playing or paused (${holding}): there is nothing to stop.`;

t.test('stop', async (t) => {
  const server = await startServer(t);
  const playing = withStatus('playing');
  const paused = withStatus('paused');
  const idle = player('player on with nothing loaded', (p) => p === null);
  const stopped = findDevice((d) => d.online && d.state.playback?.status === 'stopped', 'player stopped');
  const offline = findOffline(['speaker', 'tv']);
  const dimmer = findDevice(online('dimmer'), 'dimmer');

  t.test('stops what plays or is paused, the queue kept; the device stays on', async (t) => {
    const { body } = await expectPlayback(t, server, 'stop', {}, [
      { device: playing, patch: { playback: { ...playing.state.playback!, status: 'stopped' } } },
      { device: paused, patch: { playback: { ...paused.state.playback!, status: 'stopped' } } },
    ]);
    t.same(
      body.results.map((r: { state: { power: string } }) => r.state.power),
      ['on', 'on'],
    );
  });

  t.test('mixed: a stopped, an idle, an offline device and a dimmer fail beside one that stops; only it changes', async (t) => {
    await expectPlayback(t, server, 'stop', {}, [
      { device: stopped, code: 'nothing_playing', error: nothing(stopped, 'its playback is stopped') },
      { device: idle, code: 'nothing_playing', error: nothing(idle, 'nothing is loaded') },
      { device: offline, code: 'device_offline', error: messages.offline(offline) },
      { device: dimmer, code: 'capability_unsupported', error: messages.unsupported(dimmer, 'media playback') },
      { device: playing, patch: { playback: { ...playing.state.playback!, status: 'stopped' } } },
    ]);
  });

  t.test('refused as a whole when nothing can stop; nothing changes', async (t) => {
    await expectRefused(t, server, 'stop', [
      { args: { endpoints: [stopped.endpoint] }, status: 409, code: 'nothing_playing', detail: nothing(stopped, 'its playback is stopped') },
      { args: { endpoints: [idle.endpoint] }, status: 409, code: 'nothing_playing', detail: nothing(idle, 'nothing is loaded') },
      { args: { endpoints: [dimmer.endpoint] }, status: 422, code: 'capability_unsupported', detail: messages.unsupported(dimmer, 'media playback') },
      { args: { endpoints: [offline.endpoint] }, status: 409, code: 'device_offline', detail: messages.offline(offline) },
      { args: { endpoints: [playing.endpoint, NO_DEVICE] }, status: 404, code: 'endpoint_not_found', detail: messages.unknown(NO_DEVICE) },
    ]);
  });

  t.test('arguments', async (t) => {
    await expectInvalid(t, server, 'stop', [{}, { endpoints: [] }, { endpoints: [playing.endpoint, playing.endpoint] }, { endpoints: [42] }]);
  });
});
