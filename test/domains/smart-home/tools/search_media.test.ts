import t from 'tap';
import { foldForMatch } from '../../../../lib/text.js';
import type { Media } from '../../../../domains/smart-home/schema.js';
import { startServer } from '../../../helpers/server.js';
import { expectInvalid } from '../control.js';
import { smartHomeFixture } from '../helpers.js';

const entry = (m: Media) => ({
  media_id: m.media_id,
  type: m.type,
  title: m.title,
  artist: m.artist,
  year: m.year,
  duration_s: m.duration_s,
  genre: m.genre,
  promoted: false,
});
const byPopularity = (a: Media, b: Media) => b.popularity - a.popularity || (a.media_id < b.media_id ? -1 : 1);

t.test('search_media', async (t) => {
  const server = await startServer(t);
  const media = Object.values(smartHomeFixture().media);
  const search = async (args: Record<string, unknown>) => {
    const reply = await server.call('smart-home', 'search_media', args);
    t.equal(reply.status, 200, JSON.stringify(args));
    return reply.body;
  };

  t.test('items titled exactly as asked come first, the most popular first; total counts every match', async (t) => {
    const counts = new Map<string, number>();
    for (const m of media) counts.set(m.title, (counts.get(m.title) ?? 0) + 1);
    const title = [...counts].find(([, n]) => n >= 2)![0];
    const exact = media.filter((m) => m.title === title).sort(byPopularity);
    const words = foldForMatch(title).split(' ');
    const matching = media.filter((m) => words.every((w) => foldForMatch(`${m.title} ${m.artist ?? ''} ${m.genre}`).includes(w)));
    const body = await search({ query: title.toUpperCase(), limit: 50 });
    t.equal(body.query, title.toUpperCase());
    t.same(body.results.slice(0, exact.length), exact.map(entry));
    t.equal(body.total, matching.length);
    t.equal(body.results.length, Math.min(50, matching.length));
  });

  t.test('accents and case do not matter: an artist first, then their works by popularity', async (t) => {
    const artist = media.find((m) => m.type === 'artist' && m.title !== foldForMatch(m.title) && m.title === m.artist && /[ëéñ]/.test(m.title))!;
    const works = media.filter((m) => m.artist === artist.title && m.type !== 'artist').sort(byPopularity);
    const plain = await search({ query: foldForMatch(artist.title), limit: 50 });
    t.same(plain.results[0], entry(artist), `${artist.title} found as ${foldForMatch(artist.title)}`);
    t.same(plain.results.slice(1, 1 + works.length), works.map(entry));
    const shouted = await search({ query: artist.title.toUpperCase(), limit: 50 });
    t.same(shouted, { ...plain, query: artist.title.toUpperCase() });
    const danish = media.find((m) => m.type === 'artist' && m.title.includes('ø'));
    if (danish) t.same((await search({ query: danish.title.replace('ø', 'o') })).results[0], entry(danish), 'ø as o');
  });

  t.test('every word must match; punctuation does not matter', async (t) => {
    t.same(await search({ query: 'broken zzqx' }), { query: 'broken zzqx', total: 0, results: [] });
    const hipHop = await search({ query: 'hip hop', type: 'song', limit: 50 });
    t.equal(hipHop.total, media.filter((m) => m.type === 'song' && m.genre === 'Hip-Hop').length, "'hip hop' finds the Hip-Hop songs");
  });

  t.test('a type and a limit; ties ordered by popularity then id', async (t) => {
    const genre = 'Reggae';
    const songs = media.filter((m) => m.type === 'song' && m.genre === genre).sort(byPopularity);
    const body = await search({ query: genre.toLowerCase(), type: 'song', limit: 5 });
    t.same(body, { query: 'reggae', total: songs.length, results: songs.slice(0, 5).map(entry) });
    const movies = await search({ query: 'the', type: 'movie' });
    t.ok(
      movies.results.every((r: { type: string }) => r.type === 'movie'),
      'only movies',
    );
    t.equal(movies.results.length, Math.min(10, movies.total), 'ten by default');
  });

  t.test('arguments', async (t) => {
    await expectInvalid(t, server, 'search_media', [
      {},
      { query: '' },
      { query: '   ' },
      { query: 'rain', limit: 0 },
      { query: 'rain', limit: 51 },
      { query: 'rain', type: 'podcast' },
      { query: 'rain', offset: 10 },
    ]);
  });
});
