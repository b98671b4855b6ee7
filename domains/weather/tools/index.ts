import airQuality from './air_quality.js';
import geocodeLocation from './geocode_location.js';
import getClimateNormals from './get_climate_normals.js';
import getStationObservation from './get_station_observation.js';
import historicalWeather from './historical_weather.js';
import listWeatherStations from './list_weather_stations.js';
import pollenForecast from './pollen_forecast.js';
import reverseGeocode from './reverse_geocode.js';
import sunTimes from './sun_times.js';
import uvIndex from './uv_index.js';
import weatherAlerts from './weather_alerts.js';
import weatherCurrent from './weather_current.js';
import weatherForecast from './weather_forecast.js';
import weatherHourly from './weather_hourly.js';

/** The weather tools, in listing order: places, the model provider, the station network. */
export const weatherTools = [
  geocodeLocation,
  reverseGeocode,
  weatherCurrent,
  weatherForecast,
  weatherHourly,
  weatherAlerts,
  airQuality,
  uvIndex,
  pollenForecast,
  sunTimes,
  historicalWeather,
  getClimateNormals,
  listWeatherStations,
  getStationObservation,
] as const;

/** The name of any tool the weather domain lists. */
export type WeatherToolName = (typeof weatherTools)[number]['name'];
