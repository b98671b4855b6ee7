import { defineErrors } from '../../lib/error-catalog.js';

/** Every code a weather tool refuses with: its status and what it means. Tools raise them with toolError(). */
export const WEATHER_ERRORS = defineErrors({
  location_not_found: { status: 404, meaning: "No place has that location_id: geocode_location finds a place's id." },
  no_coverage: { status: 404, meaning: 'No covered place near those coordinates: geocode_location or reverse_geocode finds a covered place.' },
  station_not_found: { status: 404, meaning: 'No station has that id: list_weather_stations lists the stations near a place.' },
  no_match: { status: 404, meaning: 'No place matches the name (and filters): check the spelling, or drop or correct the country and region.' },
  no_place_nearby: { status: 404, meaning: 'No known place within max_distance_km of the coordinates: widen it or check the coordinates.' },
  region_not_found: { status: 404, meaning: 'No known place in that country or region: give a country ISO code or name, and a region code or name.' },
  station_offline: { status: 409, meaning: "The station has sent nothing for 7 days: use another station nearby or the model's weather_current." },
  days_out_of_range: { status: 422, meaning: 'days is beyond what the forecast covers (the detail gives the maximum): ask for fewer days.' },
  hours_out_of_range: { status: 422, meaning: 'hours is beyond what the hourly forecast covers: ask for fewer, or use weather_forecast for later days.' },
  invalid_date_range: { status: 422, meaning: 'start_date is after end_date: swap or correct them.' },
  date_out_of_range: { status: 422, meaning: 'A date is outside what the tool covers (the detail gives the bounds): stay within them.' },
  range_too_long: { status: 422, meaning: 'The date range covers more days than one call returns: split it into several calls.' },
});
