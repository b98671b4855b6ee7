import t from 'tap';
import { Random } from '../../../../lib/random.js';
import { startServer } from '../../../helpers/server.js';
import { expectInvalid, expectRefused, findOffline, messages, NO_DEVICE, NOW, online, still } from '../control.js';
import { findDevice, mediaOfType } from '../helpers.js';
import { expectPlayback, player } from '../playback.js';

type Named = { name: string; endpoint: string; type: string };
const noVideo = (d: Named, media: { media_id: string; type: string }) =>
  `${d.name} (${d.endpoint}) is a ${d.type} and cannot play video (${media.media_id} is a ${media.type}): play it on a TV.`;

t.test('play', async (t) => {
  const server = await startServer(t);
  const speaker = player('speaker on with nothing loaded', (p) => p === null, ['speaker']);
  const tv = player('TV on with nothing loaded', (p) => p === null, ['tv']);
  const busy = player('speaker playing', (p) => p?.status === 'playing', ['speaker']);
  const asleep = findDevice(online('speaker', 'off'), 'speaker off');
  const offline = findOffline(['speaker', 'tv']);
  const lamp = findDevice(online('light'), 'light');
  const album = mediaOfType('album').find((a) => a.items.length >= 3)!;
  const song = mediaOfType('song')[0]!;
  const movie = mediaOfType('movie')[0]!;
  const show = mediaOfType('show').find((s) => s.items.length >= 2)!;
  const artist = mediaOfType('artist').find((a) => a.items.length >= 2)!;
  const loaded = (media_id: string, queue: readonly string[], shuffle = false) => ({
    playback: { status: 'playing' as const, media_id, queue: [...queue], index: 0, shuffle },
  });

  t.test('an album plays its songs in order from the first, on several devices at once; what played before is replaced', async (t) => {
    const { body } = await expectPlayback(t, server, 'play', { media_id: album.media_id }, [
      { device: speaker, patch: loaded(album.media_id, album.items) },
      { device: tv, patch: loaded(album.media_id, album.items) },
      { device: busy, patch: loaded(album.media_id, album.items) },
    ]);
    t.equal(body.now_playing[0].media_id, album.items[0]);
  });

  t.test('a song plays itself; an artist its top songs; a movie and a show on a TV', async (t) => {
    await expectPlayback(t, server, 'play', { media_id: song.media_id }, [{ device: speaker, patch: loaded(song.media_id, [song.media_id]) }]);
    await expectPlayback(t, server, 'play', { media_id: artist.media_id }, [{ device: speaker, patch: loaded(artist.media_id, artist.items) }]);
    await expectPlayback(t, server, 'play', { media_id: movie.media_id }, [{ device: tv, patch: loaded(movie.media_id, [movie.media_id]) }]);
    await expectPlayback(t, server, 'play', { media_id: show.media_id }, [{ device: tv, patch: loaded(show.media_id, show.items) }]);
  });

  t.test('shuffle: the same items in an order seeded by the media, the device and the time', async (t) => {
    const shuffled = (device: { endpoint: string }) => new Random(`${album.media_id}|${device.endpoint}|${NOW}`).shuffle(album.items);
    await expectPlayback(t, server, 'play', { media_id: album.media_id, shuffle: true }, [
      { device: speaker, patch: loaded(album.media_id, shuffled(speaker), true) },
      { device: tv, patch: loaded(album.media_id, shuffled(tv), true) },
    ]);
    const again = await server.call('smart-home', 'play', { endpoints: [speaker.endpoint], media_id: album.media_id, shuffle: true }, await still(server));
    t.same(again.body.results[0].state.playback.queue, shuffled(speaker), 'the same call at the same time shuffles alike');
    t.same([...shuffled(speaker)].sort(), [...album.items].sort(), 'every item once');
  });

  t.test('mixed: video on a speaker, an off speaker, an offline device and a light fail beside the TV that plays', async (t) => {
    await expectPlayback(t, server, 'play', { media_id: movie.media_id }, [
      { device: speaker, code: 'media_unsupported', error: noVideo(speaker, movie) },
      { device: asleep, code: 'media_unsupported', error: noVideo(asleep, movie) },
      { device: tv, patch: loaded(movie.media_id, [movie.media_id]) },
      { device: offline, code: 'device_offline', error: messages.offline(offline) },
      { device: lamp, code: 'capability_unsupported', error: messages.unsupported(lamp, 'media playback') },
    ]);
    await expectPlayback(t, server, 'play', { media_id: song.media_id }, [
      { device: asleep, code: 'device_off', error: messages.off(asleep, 'playing on it') },
      { device: speaker, patch: loaded(song.media_id, [song.media_id]) },
    ]);
  });

  t.test('refused as a whole when no device can play it, or for unknown media; nothing changes', async (t) => {
    const unknown = "Unknown media_id 'midnight-rain'. Media ids are typed, e.g. 'song:…', 'album:…', 'movie:…'. Use search_media to find an item's id.";
    await expectRefused(t, server, 'play', [
      { args: { endpoints: [speaker.endpoint], media_id: show.media_id }, status: 422, code: 'media_unsupported', detail: noVideo(speaker, show) },
      { args: { endpoints: [asleep.endpoint], media_id: album.media_id }, status: 409, code: 'device_off', detail: messages.off(asleep, 'playing on it') },
      {
        args: { endpoints: [lamp.endpoint], media_id: song.media_id },
        status: 422,
        code: 'capability_unsupported',
        detail: messages.unsupported(lamp, 'media playback'),
      },
      { args: { endpoints: [offline.endpoint], media_id: song.media_id }, status: 409, code: 'device_offline', detail: messages.offline(offline) },
      { args: { endpoints: [speaker.endpoint], media_id: 'midnight-rain' }, status: 404, code: 'media_not_found', detail: unknown },
      {
        args: { endpoints: [speaker.endpoint], media_id: 'song:no-such-song' },
        status: 404,
        code: 'media_not_found',
        detail: "Unknown media_id 'song:no-such-song'. Use search_media to find an item's id.",
      },
      {
        args: { endpoints: [speaker.endpoint, NO_DEVICE], media_id: song.media_id },
        status: 404,
        code: 'endpoint_not_found',
        detail: messages.unknown(NO_DEVICE),
      },
    ]);
  });

  t.test('arguments', async (t) => {
    await expectInvalid(t, server, 'play', [
      { endpoints: [speaker.endpoint] },
      { media_id: song.media_id },
      { endpoints: [], media_id: song.media_id },
      { endpoints: [speaker.endpoint, speaker.endpoint], media_id: song.media_id },
      { endpoints: [speaker.endpoint], media_id: song.media_id, shuffle: 'yes' },
      { endpoints: [speaker.endpoint], media_id: '' },
    ]);
  });
});
