import { foldForMatch } from '../../lib/text.js';
import { toolError } from '../errors.js';
import { SMART_HOME_ERRORS } from './errors.js';

// The colours color_set takes by name, and how a colour argument becomes the '#RRGGBB' a bulb stores.
// The whites are the colour of light at their temperature: warm 2700 K, soft 3000 K, cool 4000 K, daylight 6500 K.

export const COLOR_NAMES: Readonly<Record<string, string>> = Object.freeze({
  red: '#FF0000',
  orange: '#FF8000',
  amber: '#FFBF00',
  yellow: '#FFFF00',
  lime: '#BFFF00',
  green: '#00FF00',
  teal: '#008080',
  cyan: '#00FFFF',
  'sky blue': '#87CEEB',
  blue: '#0000FF',
  indigo: '#4B0082',
  purple: '#800080',
  violet: '#8F00FF',
  lavender: '#E6E6FA',
  magenta: '#FF00FF',
  pink: '#FFC0CB',
  coral: '#FF7F50',
  gold: '#FFD700',
  white: '#FFFFFF',
  'warm white': '#FFA957',
  'soft white': '#FFB46B',
  'cool white': '#FFD1A3',
  daylight: '#FFF9FD',
});

const NAMES = Object.keys(COLOR_NAMES);
/** Names as matched: case, accents, spaces, hyphens and underscores do not count ('Warm-White' = 'warm white'). */
const compact = (name: string) => foldForMatch(name).replace(/[\s_-]+/g, '');
const BY_NAME = new Map(Object.entries(COLOR_NAMES).map(([name, code]) => [compact(name), code]));

/** '#RRGGBB' (any case, '#' optional) in upper case, or a colour name's code; 422 `unknown_color` listing the names. */
export function resolveColor(color: string): string {
  const hex = /^#?([0-9a-f]{6})$/i.exec(color.trim());
  if (hex) return `#${hex[1]!.toUpperCase()}`;
  const code = BY_NAME.get(compact(color));
  if (code) return code;
  throw toolError(
    SMART_HOME_ERRORS.unknown_color,
    `Unknown colour '${color}'. Give a hex code '#RRGGBB' (e.g. '#FF0000') or one of these names: ${NAMES.join(', ')}.`,
  );
}
