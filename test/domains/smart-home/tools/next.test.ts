import t from 'tap';
import { drawOf } from '../../../../domains/smart-home/energy.js';
import { startServer } from '../../../helpers/server.js';
import { expectInvalid, expectRefused, findOffline, messages, NO_DEVICE, online, still } from '../control.js';
import { findDevice, mediaOfType } from '../helpers.js';
import { expectPlayback, player, withStatus } from '../playback.js';

type Named = { name: string; endpoint: string };
const nothing = (d: Named, holding: string) => `${d.name} (${d.endpoint}) has nothing playing or paused (${holding}): start something with play.`;
const endOfQueue = (d: Named, n: number) => `${d.name} (${d.endpoint}) is at the last item of its queue (${n} of ${n}): there is no next item.`;

t.test('next', async (t) => {
  const server = await startServer(t);
  const playing = withStatus('playing', 'before_last');
  const paused = withStatus('paused', 'before_last');
  const last = withStatus('playing', 'last');
  const idle = player('speaker on with nothing loaded', (p) => p === null, ['speaker']);
  const stopped = findDevice((d) => d.online && d.state.playback?.status === 'stopped', 'player stopped');
  const offline = findOffline(['speaker', 'tv']);
  const color = findDevice(online('color_bulb'), 'colour bulb');
  const advanced = (d: typeof playing) => ({ playback: { ...d.state.playback!, index: d.state.playback!.index + 1, status: 'playing' as const } });

  t.test('moves to the next item and plays it; a paused device starts playing', async (t) => {
    await expectPlayback(t, server, 'next', {}, [
      { device: playing, patch: advanced(playing) },
      { device: paused, patch: advanced(paused) },
    ]);
  });

  t.test('mixed: the end of a queue, nothing loaded, a stopped, an offline device and a bulb fail beside one that moves on', async (t) => {
    const n = last.state.playback!.queue.length;
    await expectPlayback(t, server, 'next', {}, [
      { device: last, code: 'end_of_queue', error: endOfQueue(last, n) },
      { device: idle, code: 'nothing_playing', error: nothing(idle, 'nothing is loaded') },
      { device: playing, patch: advanced(playing) },
      { device: stopped, code: 'nothing_playing', error: nothing(stopped, 'its playback is stopped') },
      { device: offline, code: 'device_offline', error: messages.offline(offline) },
      { device: color, code: 'capability_unsupported', error: messages.unsupported(color, 'media playback') },
    ]);
  });

  t.test('refused as a whole when no device can move on; nothing changes', async (t) => {
    const n = last.state.playback!.queue.length;
    await expectRefused(t, server, 'next', [
      { args: { endpoints: [last.endpoint] }, status: 409, code: 'end_of_queue', detail: endOfQueue(last, n) },
      { args: { endpoints: [stopped.endpoint] }, status: 409, code: 'nothing_playing', detail: nothing(stopped, 'its playback is stopped') },
      { args: { endpoints: [idle.endpoint] }, status: 409, code: 'nothing_playing', detail: nothing(idle, 'nothing is loaded') },
      { args: { endpoints: [color.endpoint] }, status: 422, code: 'capability_unsupported', detail: messages.unsupported(color, 'media playback') },
      { args: { endpoints: [offline.endpoint] }, status: 409, code: 'device_offline', detail: messages.offline(offline) },
      { args: { endpoints: [NO_DEVICE] }, status: 404, code: 'endpoint_not_found', detail: messages.unknown(NO_DEVICE) },
    ]);
  });

  t.test('the state machine end to end: play, pause, resume, next to the end of the queue, stop', async (t) => {
    const album = mediaOfType('album').find((a) => a.items.length >= 3 && a.items.length <= 6)!;
    const n = album.items.length;
    const session = await still(server);
    const call = (tool: string, args: Record<string, unknown> = {}) => server.call('smart-home', tool, { endpoints: [idle.endpoint], ...args }, session);
    const playback = (body: { results: { state: { playback: unknown } }[] }) => body.results[0]!.state.playback;
    const base = { media_id: album.media_id, queue: album.items, shuffle: false };

    const played = await call('play', { media_id: album.media_id });
    t.same(playback(played.body), { ...base, status: 'playing', index: 0 }, 'play: the first item plays');
    t.same((await call('pause')).body.now_playing[0], { ...played.body.now_playing[0], status: 'paused' }, 'pause: the same item, paused');
    t.match((await call('pause')).body, { status: 409, code: 'not_playing' }, 'pause again: not playing');
    t.same(playback((await call('resume')).body), { ...base, status: 'playing', index: 0 }, 'resume: plays on');
    t.match((await call('resume')).body, { status: 409, code: 'not_paused' }, 'resume again: not paused');
    for (let i = 1; i < n; i++) {
      const moved = await call('next');
      t.same(playback(moved.body), { ...base, status: 'playing', index: i }, `next: item ${i + 1}`);
      t.match(moved.body.now_playing[0], { media_id: album.items[i], queue_position: i + 1, queue_length: n });
    }
    t.match((await call('next')).body, { status: 409, code: 'end_of_queue', detail: endOfQueue(idle, n) }, 'next at the last item: end of queue');
    t.same(playback((await call('stop')).body), { ...base, status: 'stopped', index: n - 1 }, 'stop: stopped at the last item');
    for (const tool of ['next', 'stop']) t.match((await call(tool)).body, { status: 409, code: 'nothing_playing' }, `${tool} after stop: nothing playing`);
    t.match((await call('resume')).body, { status: 409, code: 'not_paused' }, 'resume after stop: not paused');

    const after = (await server.state(session))['smart-home'].devices[idle.endpoint];
    t.same(after.state.playback, { ...base, status: 'stopped', index: n - 1 });
    t.equal(after.power_log.at(-1).watts, drawOf(idle, after.state), 'stopped, the speaker draws its idle watts again');
    t.equal(after.power_log.at(-1).at, '2024-05-15T20:00:00.000Z');
  });

  t.test('arguments', async (t) => {
    await expectInvalid(t, server, 'next', [
      {},
      { endpoints: [] },
      { endpoints: [playing.endpoint, playing.endpoint] },
      { endpoints: [playing.endpoint], steps: 2 },
    ]);
  });
});
