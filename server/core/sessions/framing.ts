import { crc32 } from 'node:zlib';

/**
 * A log record or a snapshot as a line: its CRC-32 in 8 hex digits, a space, its JSON. The checksum covers
 * the JSON's bytes, so a changed, cut or added byte is found on reading it back (as a database checks its
 * WAL frames).
 */
export const frame = (json: string): string => `${checksum(json)} ${json}`;

const checksum = (json: string) => crc32(json).toString(16).padStart(8, '0');
const FRAMED = /^[0-9a-f]{8} /;

/** The JSON a line frames, or what is wrong with it. */
export function unframe(line: string): { json: string } | { damage: string } {
  if (!FRAMED.test(line)) return { damage: 'no checksum where the line should start with one' };
  const json = line.slice(9);
  const found = checksum(json);
  const recorded = line.slice(0, 8);
  return found === recorded ? { json } : { damage: `its checksum is ${found}, not the ${recorded} recorded: its bytes changed` };
}
