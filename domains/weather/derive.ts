import { hasOwn } from '../../lib/own.js';
import type { Climate, Location, WeatherDatabase } from './schema.js';

// Climate descriptors from geography: used by the generator (with per-city calibration) and by
// `complete` for a hand-written file whose places come without a climate.

/** Sea-level annual mean temperature by latitude (zonal mean fit: 27 °C at the equator, 1 °C at 60°). */
export const zonalMeanTemp = (lat: number): number => Math.max(-30, 28 - 0.0075 * lat * lat);

/** Conrad's continentality index from the annual range and the latitude: K = 1.7 A / sin φ − 14. */
export function conradIndex(annualRange: number, lat: number): number {
  const sine = Math.max(Math.sin((Math.abs(lat) * Math.PI) / 180), 0.05);
  return Math.round(Math.min(100, Math.max(0, (1.7 * annualRange) / sine - 14)));
}

/** Annual range implied by a continentality index at a latitude (Conrad's formula inverted). */
export const rangeFromConrad = (index: number, lat: number): number => Math.max(1, ((index + 14) * Math.sin((Math.abs(lat) * Math.PI) / 180)) / 1.7);

/** The warmest month: July north, January south; a month later where the ocean rules (Conrad index under 12). */
export const defaultWarmestMonth = (lat: number, continentality: number): number => (lat >= 0 ? (continentality < 12 ? 8 : 7) : continentality < 12 ? 2 : 1);

/** Trade winds from the east in the tropics, westerlies in mid-latitudes, polar easterlies beyond. */
export function prevailingWind(lat: number): number {
  const a = Math.abs(lat);
  if (a < 30) return lat >= 0 ? 60 : 120;
  if (a < 62) return lat >= 0 ? 250 : 290;
  return 90;
}

/** Dew-point depression from aridity: deserts dry, rainy places humid. */
export function defaultDewpointDepression(koppen: string, precipMm: number): number {
  if (koppen.startsWith('BW')) return 14;
  if (koppen.startsWith('BS')) return 9;
  return Math.round((2.5 + 6 * Math.exp(-precipMm / 500)) * 10) / 10;
}

/** A rough Köppen class from the annual mean and range. */
export function koppenGuess(meanTemp: number, range: number): string {
  const warmest = meanTemp + range / 2;
  const coldest = meanTemp - range / 2;
  if (warmest < 0) return 'EF';
  if (warmest < 10) return 'ET';
  if (coldest >= 18) return 'Af';
  if (coldest > -3) return warmest >= 22 ? 'Cfa' : 'Cfb';
  return warmest >= 22 ? 'Dfa' : 'Dfb';
}

/** A climate from the coordinates and elevation alone: moderate continentality, average rainfall. */
export function estimateClimate(location: Pick<Location, 'lat' | 'elevation_m'>): Climate {
  const { lat, elevation_m } = location;
  const continentality = 30;
  const annualRange = Math.round(rangeFromConrad(continentality, lat) * 10) / 10;
  const baseTemp = Math.round(zonalMeanTemp(lat) * 10) / 10;
  const warmest = defaultWarmestMonth(lat, continentality);
  const koppen = koppenGuess(baseTemp - 0.0065 * elevation_m, annualRange);
  return {
    koppen,
    continentality,
    base_temp_c: baseTemp,
    annual_range_c: annualRange,
    warmest_month: warmest,
    diurnal_range_c: 9,
    precip_mm: koppen === 'EF' ? 150 : 800,
    wettest_month: warmest,
    precip_seasonality: 0.3,
    dewpoint_depression_c: defaultDewpointDepression(koppen, 800),
    wind_kmh: 12,
    prevailing_wind_deg: prevailingWind(lat),
    pm25_ugm3: 10,
  };
}

/**
 * A complete copy of a weather file: every place has a climate, every station serves a known
 * place (stations of unknown places are left out). The input is not changed.
 */
export function completeWeather(file: WeatherDatabase): WeatherDatabase {
  const locations: WeatherDatabase['locations'] = {};
  for (const [id, location] of Object.entries(file.locations)) {
    locations[id] = location.climate ? structuredClone(location) : { ...structuredClone(location), climate: estimateClimate(location) };
  }
  const stations: WeatherDatabase['stations'] = {};
  for (const [id, station] of Object.entries(file.stations)) if (hasOwn(locations, station.location_id)) stations[id] = structuredClone(station);
  return { locations, stations };
}
