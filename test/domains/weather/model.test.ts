import t from 'tap';
import { pollenCounts } from '../../../domains/weather/air.js';
import { placeSite } from '../../../domains/weather/db.js';
import {
  type Conditions,
  conditionsAt,
  dailySummary,
  diurnalShape,
  feelsLike,
  monthlyNormal,
  normalCdf,
  relativeHumidity,
  saturationGap,
  smoothNoise,
} from '../../../domains/weather/model.js';
import { latestReport, observation } from '../../../domains/weather/stations.js';
import { sunEvents } from '../../../domains/weather/sun.js';
import { addDays, daysBetween, formatLocal, hoursOfLocalDay, isTimeZone, localDate, startOfLocalDay, startOfLocalHour } from '../../../lib/time.js';
import { findStation, place, places } from './helpers.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

t.test('smooth noise: unit variance, continuous, seeded', async (t) => {
  const values: number[] = [];
  for (let h = 0; h < 24 * 2000; h += 7) values.push(smoothNoise('test:channel', Date.UTC(2024, 0, 1) + h * HOUR, 24));
  const m = mean(values);
  const variance = mean(values.map((v) => (v - m) ** 2));
  t.ok(Math.abs(m) < 0.15, `mean ${m.toFixed(3)}`);
  t.ok(Math.abs(variance - 1) < 0.2, `variance ${variance.toFixed(3)}`);
  const at = Date.UTC(2024, 4, 15, 12);
  t.ok(Math.abs(smoothNoise('test:channel', at, 24) - smoothNoise('test:channel', at + 60_000, 24)) < 0.01, 'a minute apart, nearly equal');
  t.equal(smoothNoise('test:channel', at, 24), smoothNoise('test:channel', at, 24), 'a pure function');
  t.not(smoothNoise('test:channel', at, 24), smoothNoise('test:other', at, 24), 'channels are independent');
  t.ok(Math.abs(normalCdf(0) - 0.5) < 1e-7 && Math.abs(normalCdf(1.96) - 0.975) < 1e-3 && Math.abs(normalCdf(-1.96) - 0.025) < 1e-3);
});

t.test('the diurnal cycle: minimum at sunrise, maximum mid-afternoon', async (t) => {
  t.equal(diurnalShape(6, 6), -1);
  t.equal(diurnalShape(14.5, 6), 1);
  t.ok(diurnalShape(10, 6) > -1 && diurnalShape(10, 6) < 1);
  t.ok(diurnalShape(20, 6) < diurnalShape(16, 6) && diurnalShape(2, 6) < diurnalShape(20, 6), 'cooling through the night');
  t.ok(diurnalShape(2, 12) >= -1 && diurnalShape(2, 0) <= 1, 'polar night and day stay bounded');
  // Over a month, afternoons are warmer than dawns everywhere with a sun.
  for (const id of ['phoenix-us', 'london-gb', 'singapore-sg', 'sydney-au']) {
    const site = placeSite(place(id));
    const days = Array.from({ length: 30 }, (_, i) => addDays('2024-03-01', i));
    const at = (date: string, localHour: number) => startOfLocalDay(place(id).timezone, date) + localHour * HOUR;
    const afternoon = mean(days.map((d) => conditionsAt(site, at(d, 15)).temperature));
    const dawn = mean(days.map((d) => conditionsAt(site, at(d, 5)).temperature));
    t.ok(afternoon > dawn + 2, `${id}: 15:00 (${afternoon.toFixed(1)}) warmer than 05:00 (${dawn.toFixed(1)})`);
  }
});

t.test('consecutive hours are consistent everywhere', async (t) => {
  for (const p of places()) {
    const site = placeSite(p);
    let worst = 0;
    let previous: Conditions | undefined;
    const odd: string[] = [];
    for (let h = 0; h < 72; h++) {
      const c = conditionsAt(site, Date.UTC(2024, 6, 1) + h * HOUR);
      if (previous) worst = Math.max(worst, Math.abs(c.temperature - previous.temperature));
      if (!(c.humidity >= 1 && c.humidity <= 100 && c.dewpoint <= c.temperature)) odd.push(`humidity at ${h}`);
      if (!(c.gust >= c.wind && c.pressure > 950 && c.pressure < 1060 && c.cloud >= 0 && c.cloud <= 1)) odd.push(`ranges at ${h}`);
      previous = c;
    }
    t.same(odd, [], `${p.id}: values within their ranges`);
    t.ok(worst < 5, `${p.id}: largest hourly change ${worst.toFixed(1)} °C`);
  }
});

t.test('the model matches its own normals over the years', async (t) => {
  for (const [id, month] of [
    ['chicago-us', 1],
    ['chicago-us', 7],
    ['sydney-au', 1],
    ['dubai-ae', 8],
    ['oslo-no', 4],
    ['singapore-sg', 11],
  ] as const) {
    const p = place(id);
    const site = placeSite(p);
    const normal = monthlyNormal(site, month);
    const highs: number[] = [];
    const lows: number[] = [];
    let precip = 0;
    for (let year = 2010; year < 2020; year++) {
      for (let day = 1; day <= 28; day += 3) {
        const summary = dailySummary(site, p.timezone, `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`);
        highs.push(summary.tempMax);
        lows.push(summary.tempMin);
        precip += summary.precip;
      }
    }
    const monthly = (precip / highs.length) * 30.4;
    t.ok(Math.abs(mean(highs) - normal.tempMaxMean) < 2.5, `${id} ${month}: mean high ${mean(highs).toFixed(1)} vs normal ${normal.tempMaxMean.toFixed(1)}`);
    t.ok(Math.abs(mean(lows) - normal.tempMinMean) < 2.5, `${id} ${month}: mean low ${mean(lows).toFixed(1)} vs normal ${normal.tempMinMean.toFixed(1)}`);
    t.ok(
      monthly < normal.precip * 2 + 10 && monthly > normal.precip / 2 - 10,
      `${id} ${month}: ${monthly.toFixed(0)} mm vs normal ${normal.precip.toFixed(0)} mm`,
    );
  }
});

t.test('physics helpers', async (t) => {
  t.equal(relativeHumidity(20, 20), 100);
  t.ok(Math.abs(relativeHumidity(20, 10) - 52.6) < 1, 'Magnus');
  t.equal(saturationGap(5), 5);
  t.ok(saturationGap(-10) > 0.39 && saturationGap(-10) < 0.5, 'never quite saturated');
  t.ok(Math.abs(saturationGap(2) - 2) < 1e-9, 'continuous at 2 °C');
  t.equal(feelsLike(20, 50, 10), 20, 'mild: the air temperature');
  t.ok(feelsLike(35, 60, 10) > 40, 'hot and humid feels hotter');
  t.ok(feelsLike(40, 5, 10) >= 40, 'hot and very dry: never below the air');
  t.ok(feelsLike(28, 90, 5) > 28);
  t.ok(feelsLike(27, 45, 5) >= 27, 'the simple heat index');
  t.ok(feelsLike(-10, 70, 30) < -17, 'wind chill');
  t.equal(feelsLike(5, 70, 3), 5, 'calm cold: no wind chill');
});

t.test('snow falls below freezing, rain above', async (t) => {
  let snowy = 0;
  const site = placeSite(place('montreal-ca'));
  for (let h = 0; h < 24 * 60; h += 2) {
    const c = conditionsAt(site, Date.UTC(2024, 0, 1) + h * HOUR);
    if (c.snow > 0) {
      snowy++;
      t.ok(c.temperature <= 0.5, 'snow only when cold');
      if (c.precip >= 0.05) t.equal(c.condition, 'snow');
    }
    if (c.precip > 0 && c.temperature > 2) t.notOk(['snow', 'sleet'].includes(c.condition));
  }
  t.ok(snowy > 0, 'Montreal sees snow in winter');
});

t.test('sun events', async (t) => {
  const london = sunEvents(51.5074, -0.1278, '2024-03-20');
  t.ok(Math.abs(london.daylightMinutes - 12 * 60 - 9) < 5, 'equinox day length');
  t.ok(london.civilDawn! < london.sunrise! && london.sunset! < london.civilDusk!);
  const tromso = sunEvents(69.65, 18.96, '2024-06-21');
  t.equal(tromso.polar, 'polar_day');
  t.equal(tromso.civilDawn, null);
  const polarNight = sunEvents(69.65, 18.96, '2024-12-21');
  t.equal(polarNight.polar, 'polar_night');
  t.ok(polarNight.civilDawn !== null, 'civil twilight still happens at noon');
  // Where the sun grazes the horizon, the day around solar noon still comes out ordered.
  const edge = sunEvents(66.5, 25.7, '2024-06-10');
  t.ok(edge.polar === 'polar_day' || edge.sunrise! < edge.sunset!);
});

t.test('local time', async (t) => {
  t.equal(formatLocal('America/Chicago', Date.UTC(2024, 4, 15, 20)), '2024-05-15T15:00:00-05:00');
  t.equal(formatLocal('Asia/Kolkata', Date.UTC(2024, 4, 15, 20)), '2024-05-16T01:30:00+05:30');
  t.equal(formatLocal('America/St_Johns', Date.UTC(2024, 0, 1, 12)), '2024-01-01T08:30:00-03:30');
  t.equal(localDate('Pacific/Auckland', Date.UTC(2024, 4, 15, 20)), '2024-05-16');
  t.equal(hoursOfLocalDay('Europe/London', '2024-03-31').length, 23, 'spring forward');
  t.equal(hoursOfLocalDay('Europe/London', '2024-10-27').length, 25, 'fall back');
  t.equal(hoursOfLocalDay('Asia/Tokyo', '2024-05-15').length, 24);
  t.equal(startOfLocalHour('Asia/Kolkata', Date.UTC(2024, 4, 15, 20, 10)), Date.UTC(2024, 4, 15, 19, 30));
  t.equal(daysBetween('2024-02-28', '2024-03-01'), 2);
  t.equal(addDays('2024-12-31', 1), '2025-01-01');
  t.equal(isTimeZone('Europe/Kyiv'), true);
  t.equal(isTimeZone('Mars/Olympus_Mons'), false);
});

t.test('stations report on schedule, close to the model', async (t) => {
  const station = findStation((s) => s.kind === 'airport' && s.reliability === 1);
  const p = place(station.location_id);
  const now = Date.UTC(2024, 4, 15, 20, 30);
  const at = latestReport(station, now)!;
  t.ok(now - at < HOUR && now >= at, 'within the hour');
  t.equal(new Date(at).getUTCMinutes(), station.report_offset_min);
  const report = observation(station, p, at);
  const model = conditionsAt(placeSite(p), at);
  t.ok(Math.abs(report.temperature - model.temperature) < 3);
  t.same(observation(station, p, at), report, 'a pure function');
});

t.test('pollen stays off the ice and out of the cold', async (t) => {
  const p = place('mcmurdo-station-aq');
  const counts = pollenCounts(placeSite(p), p.timezone, dailySummary(placeSite(p), p.timezone, '2024-12-20'));
  t.same(counts, { tree: 0, grass: 0, weed: 0 });
  const london = place('london-gb');
  const winter = pollenCounts(placeSite(london), london.timezone, dailySummary(placeSite(london), london.timezone, '2024-01-20'));
  t.ok(winter.tree < 15, 'little tree pollen in a London January');
});

t.test('every place has weather at any instant, past or future', async (t) => {
  const broken: string[] = [];
  for (const p of places()) {
    for (const at of [Date.UTC(1950, 0, 1), Date.UTC(2024, 4, 15, 20), Date.UTC(2099, 11, 31, 23)]) {
      const c = conditionsAt(placeSite(p), at);
      if (!Object.values(c).every((v) => typeof v !== 'number' || Number.isFinite(v))) broken.push(`${p.id} at ${new Date(at).toISOString()}`);
    }
  }
  t.same(broken, [], 'finite values everywhere');
  t.ok(dailySummary(placeSite(place('oslo-no')), 'Europe/Oslo', '2024-05-15').hours.length === 24 && DAY === 86_400_000);
});
