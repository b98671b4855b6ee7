import { assetUrl } from '../../lib/assets.js';
import { generateWeather } from '../../fixtures/generator/weather.js';
import type { DatabaseFile, Domain } from '../domain.js';
import { completeWeather } from './derive.js';
import { weatherHazards } from './hazards/index.js';
import { WeatherDatabase } from './schema.js';
import { weatherTools } from './tools/index.js';
import { weatherTasks } from './tasks/index.js';
import { WEATHER_ERRORS } from './errors.js';

export const weather: Domain = {
  name: 'weather',
  title: 'Weather',
  summary:
    'Weather for about 90 cities on every continent, from two providers as in life: a model provider (current ' +
    'conditions, hourly and daily forecasts, alerts, air quality, UV, pollen) and a station network (observed ' +
    'conditions), with geocoding, sun times, history and climate normals. Deterministic: the weather follows the ' +
    "session's clock.",
  database: WeatherDatabase as unknown as Domain['database'],
  complete: (file: DatabaseFile) => completeWeather(file as unknown as WeatherDatabase) as unknown as DatabaseFile,
  tools: [...weatherTools],
  errors: WEATHER_ERRORS,
  policyFile: assetUrl('domains/weather/policy.md'),
  fixtureFile: assetUrl('fixtures/weather.json'),
  world: (seed: number) => generateWeather(`instance:${seed}`, { scale: 1 }) as unknown as DatabaseFile,
  tasks: async () => weatherTasks,
  hazards: weatherHazards,
};
