import t from 'tap';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { expectInvalid, place } from '../helpers.js';

t.test('reverse_geocode', async (t) => {
  const server = await startServer(t);
  const reverse = (args: Record<string, unknown>) => server.call('weather', 'reverse_geocode', args);

  t.test('the nearest place, its distance and direction, and other places nearby', async (t) => {
    const reply = await reverse({ lat: 45.5, lon: -122.6 });
    t.equal(reply.status, 200);
    t.match(reply.body, {
      query: { lat: 45.5, lon: -122.6 },
      location: { location_id: 'portland-or-us', name: 'Portland', region: 'Oregon', country_code: 'US', timezone: 'America/Los_Angeles' },
      direction: 'WNW',
    });
    t.ok(reply.body.distance_km > 5 && reply.body.distance_km < 8, `${reply.body.distance_km} km`);
    t.same(
      reply.body.nearby.map((n: { location_id: string }) => n.location_id),
      ['seattle-us'],
    );
    t.ok(reply.body.nearby[0].distance_km > 200 && reply.body.nearby[0].distance_km < 300);
  });

  t.test("a place's own coordinates give that place at 0 km", async (t) => {
    for (const id of ['springfield-mo-us', 'san-jose-cr', 'mcmurdo-station-aq', 'suva-fj']) {
      const p = place(id);
      const reply = await reverse({ lat: p.lat, lon: p.lon });
      t.equal(reply.body.location.location_id, id);
      t.equal(reply.body.distance_km, 0);
    }
  });

  t.test('nearby lists at most 4 places within 300 km, nearest first', async (t) => {
    const reply = await reverse({ lat: 50.5, lon: 7 });
    const distances = [reply.body.distance_km, ...reply.body.nearby.map((n: { distance_km: number }) => n.distance_km)];
    t.same(
      distances,
      [...distances].sort((a, b) => a - b),
    );
    t.ok(reply.body.nearby.length <= 4 && reply.body.nearby.every((n: { distance_km: number }) => n.distance_km <= 300));
  });

  t.test('max_distance_km widens or narrows the search', async (t) => {
    const far = await reverse({ lat: 20, lon: -150, max_distance_km: 1000 });
    t.equal(far.status, 200);
    t.equal(far.body.location.location_id, 'honolulu-us');
    await expectRejections(t, server, 'weather', 'reverse_geocode', [
      { args: { lat: 20, lon: -150 }, status: 404, detail: 'No known place within 100 km of 20, -150 (the nearest, Honolulu, is 830 km away).' },
      {
        args: { lat: 45.5, lon: -122.6, max_distance_km: 1 },
        status: 404,
        detail: 'No known place within 1 km of 45.5, -122.6 (the nearest, Portland, is 6 km away).',
      },
    ]);
  });

  t.test('invalid arguments answer 400 naming the field', async (t) => {
    await expectInvalid(t, server, 'reverse_geocode', [
      { args: {}, field: 'lat' },
      { args: { lat: 45 }, field: 'lon' },
      { args: { lat: 91, lon: 0 }, field: 'lat' },
      { args: { lat: 0, lon: -181 }, field: 'lon' },
      { args: { lat: '45', lon: 0 }, field: 'lat' },
      { args: { lat: 0, lon: 0, max_distance_km: 0 }, field: 'max_distance_km' },
      { args: { lat: 0, lon: 0, max_distance_km: 2001 }, field: 'max_distance_km' },
      { args: { lat: 0, lon: 0, location_id: 'oslo-no' }, field: 'location_id' },
    ]);
  });
});
