import { foldForMatch } from '../../lib/text.js';
import { asPlace, type WeatherDb } from './db.js';
import type { Place } from './schema.js';

// Name matching for geocode_location: names and alternate names regardless of case and accents,
// an optional ", region" / ", country" qualifier in the query, and country/region filters.

/** Other ways people name countries, by ISO code (folded). */
const COUNTRY_ALIASES: Readonly<Record<string, readonly string[]>> = {
  US: ['usa', 'u.s.', 'u.s.a.', 'united states of america', 'america', 'the united states'],
  GB: ['uk', 'u.k.', 'great britain', 'britain', 'england'],
  AE: ['uae', 'u.a.e.', 'emirates'],
  KR: ['korea', 'republic of korea'],
  CD: ['drc', 'democratic republic of the congo', 'congo-kinshasa'],
  CZ: ['czech republic'],
  RU: ['russian federation'],
  TR: ['turkey', 'turkiye'],
  NL: ['holland'],
  VN: ['viet nam'],
  IR: ['persia'],
  AQ: ['antarctic'],
};

export interface Match {
  place: Place;
  /** The name or alternate name that matched. */
  matched: string;
  /** 3 exact name, 2 exact alternate name, 1 prefix of either. */
  score: number;
}

export function matchesCountry(place: Place, wanted: string): boolean {
  const w = foldForMatch(wanted);
  return w === foldForMatch(place.country_code) || w === foldForMatch(place.country) || (COUNTRY_ALIASES[place.country_code] ?? []).includes(w);
}

export function matchesRegion(place: Place, wanted: string): boolean {
  const w = foldForMatch(wanted);
  return w === foldForMatch(place.region) || w === foldForMatch(place.region_code);
}

/** A qualifier after a comma: a region, a country or a continent. */
const matchesQualifier = (place: Place, qualifier: string): boolean =>
  matchesRegion(place, qualifier) || matchesCountry(place, qualifier) || foldForMatch(place.continent) === foldForMatch(qualifier);

/** Places whose name or an alternate name is `name` (or, failing any, starts with it). */
function byName(db: WeatherDb, name: string): Match[] {
  const wanted = foldForMatch(name);
  if (wanted === '') return [];
  const exact: Match[] = [];
  const prefix: Match[] = [];
  for (const location of db.locations.values()) {
    const place = asPlace(location);
    if (foldForMatch(place.name) === wanted) {
      exact.push({ place, matched: place.name, score: 3 });
      continue;
    }
    const alternate = place.alternate_names.find((alt) => foldForMatch(alt) === wanted);
    if (alternate !== undefined) {
      exact.push({ place, matched: alternate, score: 2 });
      continue;
    }
    if (wanted.length >= 3) {
      const starts = [place.name, ...place.alternate_names].find((n) => foldForMatch(n).startsWith(wanted));
      if (starts !== undefined) prefix.push({ place, matched: starts, score: 1 });
    }
  }
  return exact.length > 0 ? exact : prefix;
}

/**
 * The places a query names, best first: the whole query as a name, else the part before the first
 * comma as the name and each part after it as a region or country that must also match.
 */
export function findPlaces(db: WeatherDb, query: string): { name: string; qualifiers: string[]; matches: Match[] } {
  const whole = byName(db, query);
  const parts = query
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if ((whole.length > 0 && whole.some((m) => m.score > 1)) || parts.length < 2) return { name: query.trim(), qualifiers: [], matches: sortMatches(whole) };
  const [name = '', ...qualifiers] = parts;
  const matches = byName(db, name).filter((m) => qualifiers.every((q) => matchesQualifier(m.place, q)));
  return { name, qualifiers, matches: sortMatches(matches) };
}

/** Best score first, then the larger place, then the id. */
export function sortMatches(matches: Match[]): Match[] {
  return matches.sort((a, b) => b.score - a.score || b.place.population - a.place.population || (a.place.id < b.place.id ? -1 : 1));
}
