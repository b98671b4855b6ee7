import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { expectRefused } from '../control.js';
import { mediaOfType, smartHomeFixture } from '../helpers.js';

t.test('get_media_details', async (t) => {
  const server = await startServer(t);
  const db = smartHomeFixture();
  const expanded = (ids: readonly string[]) => ids.map((id) => ({ media_id: id, title: db.media[id]!.title, duration_s: db.media[id]!.duration_s }));

  t.test('a collection with its playable items, in play order', async (t) => {
    for (const type of ['album', 'playlist', 'artist', 'show'] as const) {
      const media = mediaOfType(type).find((m) => m.items.length >= 2)!;
      const reply = await server.call('smart-home', 'get_media_details', { media_id: media.media_id });
      t.equal(reply.status, 200, type);
      t.same(reply.body, { ...media, items: expanded(media.items) }, type);
    }
  });

  t.test('a song, a movie, an episode: the record, no items', async (t) => {
    for (const type of ['song', 'movie', 'episode'] as const) {
      const media = mediaOfType(type)[0]!;
      const reply = await server.call('smart-home', 'get_media_details', { media_id: media.media_id });
      t.same(reply.body, { ...media, items: [] }, type);
    }
  });

  t.test('unknown ids: 404, with how ids are written', async (t) => {
    await expectRefused(t, server, 'get_media_details', [
      {
        args: { media_id: 'paper-lights' },
        status: 404,
        code: 'media_not_found',
        detail: "Unknown media_id 'paper-lights'. Media ids are typed, e.g. 'song:…', 'album:…', 'movie:…'. Use search_media to find an item's id.",
      },
      {
        args: { media_id: 'album:nope' },
        status: 404,
        code: 'media_not_found',
        detail: "Unknown media_id 'album:nope'. Use search_media to find an item's id.",
      },
    ]);
    for (const args of [{}, { media_id: '' }, { media_id: ['song:x'] }]) {
      t.equal((await server.call('smart-home', 'get_media_details', args)).status, 400, JSON.stringify(args));
    }
  });
});
