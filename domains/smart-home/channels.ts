import { foldForMatch, nearMatches } from '../../lib/text.js';
import { toolError } from '../errors.js';
import { SMART_HOME_ERRORS } from './errors.js';

// The TV lineup every home's provider carries: channel numbers and names, one to one. channel_change
// takes either; a TV's state holds the number.

export interface Channel {
  readonly number: number;
  readonly name: string;
}

export const CHANNELS: readonly Channel[] = [
  { number: 2, name: 'CBS' },
  { number: 4, name: 'NBC' },
  { number: 5, name: 'FOX' },
  { number: 7, name: 'ABC' },
  { number: 9, name: 'PBS' },
  { number: 11, name: 'The CW' },
  { number: 13, name: 'Univision' },
  { number: 24, name: 'CNN' },
  { number: 25, name: 'MSNBC' },
  { number: 26, name: 'Fox News' },
  { number: 27, name: 'CNBC' },
  { number: 28, name: 'Bloomberg TV' },
  { number: 30, name: 'ESPN' },
  { number: 31, name: 'ESPN2' },
  { number: 33, name: 'NFL Network' },
  { number: 35, name: 'NBA TV' },
  { number: 40, name: 'HGTV' },
  { number: 41, name: 'Food Network' },
  { number: 42, name: 'Discovery' },
  { number: 43, name: 'History' },
  { number: 44, name: 'National Geographic' },
  { number: 45, name: 'Animal Planet' },
  { number: 50, name: 'Comedy Central' },
  { number: 52, name: 'AMC' },
  { number: 53, name: 'FX' },
  { number: 54, name: 'TNT' },
  { number: 55, name: 'TBS' },
  { number: 60, name: 'Cartoon Network' },
  { number: 61, name: 'Nickelodeon' },
  { number: 62, name: 'Disney Channel' },
  { number: 70, name: 'HBO' },
  { number: 80, name: 'The Weather Channel' },
];

/** A name as matched: case, accents, spaces and punctuation do not count ('fox news' = 'FoxNews'). */
const compact = (name: string) => foldForMatch(name).replace(/[^a-z0-9]/g, '');

const BY_NUMBER = new Map(CHANNELS.map((channel) => [channel.number, channel]));
const BY_NAME = new Map(CHANNELS.map((channel) => [compact(channel.name), channel]));

/** The lineup as one line: "2 CBS, 4 NBC, …". */
export const LINEUP = CHANNELS.map((channel) => `${channel.number} ${channel.name}`).join(', ');

/** The channel a number, a numeric string or a name designates; 404 `channel_not_found` naming the lineup. */
export function requireChannel(channel: number | string): Channel {
  const number = typeof channel === 'number' ? channel : /^\s*\d+\s*$/.test(channel) ? Number(channel) : undefined;
  const found = number === undefined ? BY_NAME.get(compact(String(channel))) : BY_NUMBER.get(number);
  if (found) return found;
  const near = typeof channel === 'string' && number === undefined ? nearMatches(compact(channel), BY_NAME.keys()).map((key) => BY_NAME.get(key)!.name) : [];
  const suggestion = near.length > 0 ? ` Did you mean ${near.map((name) => `'${name}'`).join(', ')}?` : '';
  throw toolError(
    SMART_HOME_ERRORS.channel_not_found,
    `No channel ${typeof channel === 'number' ? channel : `'${channel}'`} in the lineup.${suggestion} The lineup: ${LINEUP}.`,
  );
}
