import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { VIDEO_TYPES } from '../playback.js';
import { smartHomeTask } from './define.js';
import { devicesOf, namesFor, named, people, person, pickFrom, spoken, uniquelyTitled } from './common.js';

// A movie asked for on a speaker: video plays only on TVs, so the answer is a refusal and the home's TVs.

export default smartHomeTask({
  id: 'smart-home/022',
  title: 'Refuse to play a movie on a speaker',
  categories: ['refusal', 'multi-step'],
  pick({ db, random }) {
    const candidates = people(db).flatMap(({ user, home }) => {
      const devices = devicesOf(db, home.home_id);
      if (!devices.some((d) => d.type === 'tv')) return [];
      return devices.filter((d) => d.type === 'speaker').flatMap((speaker) => namesFor(speaker, devices).map((name) => ({ user, name })));
    });
    const { user, name } = pickFrom(random, candidates, 'speaker in a home with a TV');
    const movie = pickFrom(random, uniquelyTitled(db, 'movie'), 'movie with a title of its own');
    return { ...person(user), speaker: spoken(name), movie: movie.title };
  },
  request: (given) => `${given.name} (${given.user_id}). Put the movie ${given.movie} on ${given.speaker}.`,
  answer: z.strictObject({
    movie: field.id("The movie's typed media id ('movie:…')."),
    played: field.flag('Whether it is playing on the speaker now.'),
    tvs: field.set(field.id('A TV, by endpoint id.'), "The TVs of the person's home, which can play it instead."),
  }),
  solve(tools, given) {
    const { devices } = tools.get_user_inventory({ user_id: given.user_id });
    const speaker = named(devices, given.speaker);
    const movie = tools.search_media({ query: given.movie, type: 'movie' }).results[0]!;
    if (!VIDEO_TYPES.includes(movie.type) || speaker.type === 'tv') throw new Error('the template expects video on a speaker');
    return { movie: movie.media_id, played: false, tvs: devices.filter((d) => d.type === 'tv').map((d) => d.endpoint) };
  },
  targets: [{ kind: 'transport_fault', tool: 'search_media', recovery: 'retry the search after the broken answer' }],
  forbidden: (given) => [{ tool: 'play', why: `${given.speaker} is a speaker: it cannot play video` }],
});
