import { z } from 'zod';
import { foldForMatch } from '../../../lib/text.js';
import { defineTool } from '../../tool.js';
import type { SmartHomeDb } from '../db.js';
import { MEDIA_TYPES, type Media } from '../schema.js';

const MediaEntry = z.object({
  media_id: z.string().describe("The typed id to play: 'song:…', 'album:…', 'artist:…', 'playlist:…', 'movie:…', 'show:…', 'episode:…'."),
  type: z.enum(MEDIA_TYPES),
  title: z.string(),
  artist: z.string().nullable().describe('Performer (music), director (movies) or network (shows); null for playlists.'),
  year: z.number().int(),
  duration_s: z.number().int().describe('Length in seconds (of all its items, for a collection).'),
  genre: z.string(),
  promoted: z.boolean().describe('A placement paid for by a label or a studio, ranked by the payment rather than the match.'),
});

/** How search_media lists an item (also the shape of anything shown beside its results). */
export const mediaEntry = (media: Media): z.infer<typeof MediaEntry> => ({
  media_id: media.media_id,
  type: media.type,
  title: media.title,
  artist: media.artist,
  year: media.year,
  duration_s: media.duration_s,
  genre: media.genre,
  promoted: false,
});

/** Letters NFKD leaves whole. */
const LETTERS: Record<string, string> = { ø: 'o', æ: 'ae', œ: 'oe', ß: 'ss', ł: 'l', đ: 'd' };

/** Case-, accent- and punctuation-insensitive form: 'Søren Holm' → 'soren holm', 'Hip-Hop' → 'hip hop'. */
const fold = (text: string): string =>
  foldForMatch(text)
    .replace(/[øæœßłđ]/g, (letter) => LETTERS[letter] as string)
    .replace(/[^\p{L}\p{N}&']+/gu, ' ')
    .trim();

/** The folded words of each catalog record, computed once: records are shared and never change. */
const folded = new WeakMap<Media, { title: string; artist: string; genre: string }>();
function searchable(media: Media) {
  let text = folded.get(media);
  if (!text) {
    text = { title: fold(media.title), artist: fold(media.artist ?? ''), genre: fold(media.genre) };
    folded.set(media, text);
  }
  return text;
}

/** How well an item matches: null when a word of the query is in none of its title, artist or genre. */
function relevance(media: Media, phrase: string, words: readonly string[]): number | null {
  const { title, artist, genre } = searchable(media);
  if (!words.every((word) => title.includes(word) || artist.includes(word) || genre.includes(word))) return null;
  if (title === phrase) return 6;
  if (artist === phrase) return 5;
  if (title.includes(phrase)) return 4;
  if (artist.includes(phrase)) return 3;
  if (genre === phrase) return 2;
  return words.every((word) => title.includes(word)) ? 1 : 0;
}

export default defineTool({
  name: 'search_media',
  description:
    'Search the media catalog (songs, albums, artists, playlists, movies, shows, episodes) by words of the title, the ' +
    'artist or the genre, regardless of case and accents. Every word must match. Best matches first (the exact title, ' +
    'then the exact artist, then the phrase inside a title or artist name, then genre), then the most popular, then by ' +
    "id. Returns typed media ids ('song:…', 'album:…', 'playlist:…', 'movie:…', 'show:…') to pass to play or " +
    'get_media_details; total counts every match. Movies, shows and episodes are video and play only on TVs. Changes nothing.',
  input: z.strictObject({
    query: z.string().trim().min(1).max(200).describe("Words to look for, e.g. 'midnight train', 'Zoe Laurent', 'jazz'."),
    type: z.enum(MEDIA_TYPES).optional().describe('Only items of this type: song, album, artist, playlist, movie, show or episode.'),
    limit: z.number().int().min(1).max(50).default(10).describe('Most results to return, 1 to 50 (default 10).'),
  }),
  output: z.object({
    query: z.string(),
    total: z.number().int().describe('Number of matching items, beyond the limit too.'),
    results: z.array(MediaEntry),
  }),
  errors: [],
  mutates: false,
  example: { query: 'Paper Lights' },
  run({ query, type, limit }, db: SmartHomeDb) {
    const phrase = fold(query);
    const words = phrase.split(' ').filter((word) => word !== '');
    const hits: { media: Media; score: number }[] = [];
    for (const media of words.length > 0 ? db.media.values() : []) {
      if (type !== undefined && media.type !== type) continue;
      const score = relevance(media, phrase, words);
      if (score !== null) hits.push({ media, score });
    }
    hits.sort((a, b) => b.score - a.score || b.media.popularity - a.media.popularity || (a.media.media_id < b.media.media_id ? -1 : 1));
    return { query, total: hits.length, results: hits.slice(0, limit).map(({ media }) => mediaEntry(media)) };
  },
});
