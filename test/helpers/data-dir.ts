import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_FORMAT } from '../../server/sessions/data-format.js';
import { frame, unframe } from '../../server/sessions/framing.js';

/** The JSON a checksummed line holds (throws on damage). */
function json(line: string): any {
  const framed = unframe(line);
  if ('damage' in framed) throw new Error(framed.damage);
  return JSON.parse(framed.json);
}

/** A snapshot of DATA_DIR, read back. */
export const readSnapshot = (dir: string, id: string): any => json(readFileSync(join(dir, 'sessions', `${id}.json`), 'utf8'));

/** The records of a log file, in order. */
export const readLog = (path: string): any[] => readFileSync(path, 'utf8').split('\n').filter(Boolean).map(json);

/** Writes records as a log of the current format (numbered from `from`, unless they are), and the FORMAT file. */
export function writeLog(dir: string, name: string, records: readonly object[], from = 1): void {
  const lines = records.map((record, i) => frame(JSON.stringify({ n: from + i, ...record })));
  writeFileSync(join(dir, name), `${lines.join('\n')}\n`);
  writeFileSync(join(dir, 'FORMAT'), `wildtools data ${DATA_FORMAT}\n`);
}

/** A line of a log of the current format, as written. */
export const logLine = (record: object): string => frame(JSON.stringify(record));
