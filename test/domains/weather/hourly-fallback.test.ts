import t from 'tap';
import { domains } from '../../../domains/index.js';
import { baseFromData } from '../../../server/core/data/base.js';
import { fixtureBases, startServer } from '../../helpers/server.js';

// The policy's fallback for weather_current (when it is out): the current hour of weather_hourly, "the same
// model's estimate". It must hold on every record: over every place of the base data and of a generated world
// (seed 1), hazard-free, the first hour gives the temperature and condition weather_current gives, at a time on
// the place's local hour (as the tasks' clocks are; within the hour the nowcast moves on, and the policy has the
// hour quoted as of its time).

const domain = domains.find((d) => d.name === 'weather')!;
/** On the hour at places whose offset is whole hours, and at those with a half-hour offset (India, central Australia). */
const CLOCKS = ['2024-05-15T20:00:00Z', '2024-05-15T20:30:00Z'] as const;

async function basesFor(seed: number) {
  const bases = await fixtureBases();
  if (seed !== 0) bases.set(domain.name, baseFromData(domain, domain.world!(seed), `weather world of seed ${seed}`));
  return bases;
}

for (const seed of [0, 1]) {
  t.test(`seed ${seed}: the hourly forecast's current hour is weather_current's estimate, at every place`, async (t) => {
    const server = await startServer(t, { bases: await basesFor(seed) });
    const sessions = await Promise.all(CLOCKS.map((start, i) => server.newSession({ id: `hourly-fallback-${seed}-${i}`, clock: { start } })));
    const places = Object.keys((await server.state(sessions[0]))['weather']['locations'] as Record<string, unknown>);
    const wrong: string[] = [];
    for (const location_id of places) {
      // The session whose clock is on the place's local hour: the one where the hourly forecast starts now.
      let session = sessions[0]!;
      for (const candidate of sessions) {
        const start = (await server.call('weather', 'weather_hourly', { location_id, hours: 1 }, candidate)).body['hours'][0]['time'];
        if (Date.parse(start) === Date.parse(CLOCKS[sessions.indexOf(candidate)]!)) session = candidate;
      }
      const current = (await server.call('weather', 'weather_current', { location_id }, session)).body;
      const hour = (await server.call('weather', 'weather_hourly', { location_id, hours: 1 }, session)).body['hours'][0];
      const now = { temperature: current['current']['temperature'], condition: current['current']['condition'] };
      if (JSON.stringify(now) !== JSON.stringify({ temperature: hour['temperature'], condition: hour['condition'] })) wrong.push(location_id);
    }
    t.comment(`seed ${seed}: ${places.length} places checked, ${wrong.length} wrong${wrong.length ? `: ${wrong.join(', ')}` : ''}`);
    t.ok(places.length > 20, 'a whole world of places');
    t.same(wrong, [], 'the fallback gives the same estimate at every place');
  });
}
