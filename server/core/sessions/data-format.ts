import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-file.js';

/**
 * The layout of DATA_DIR, named in its `FORMAT` file. 3: a snapshot is one line (the session without its
 * journal) and a journal file appended to at each checkpoint, a checksummed line per entry (format 2's
 * snapshots, the journal inside, are read too). 2: every log
 * record carries a sequence number and a checksum, every snapshot a checksum. 1: before (no FORMAT file),
 * read once to be migrated.
 */
export const DATA_FORMAT = 3;
const FILE = 'FORMAT';
const TEXT = `wildtools data ${DATA_FORMAT}\n`;

/** The format of the data in `dir`: the current one for an empty folder, 1 for data without a FORMAT file. */
export async function formatOf(dir: string): Promise<number> {
  let text: string;
  try {
    text = await readFile(join(dir, FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const names = await readdir(dir);
    const sessions = names.includes('sessions') ? await readdir(join(dir, 'sessions')) : [];
    return names.some((name) => name.startsWith('wal-')) || sessions.some((name) => name.endsWith('.json')) ? 1 : DATA_FORMAT;
  }
  const format = /^wildtools data (\d+)\n?$/.exec(text);
  return format ? Number(format[1]) : Number.NaN;
}

export const writeFormat = (dir: string, fsync: boolean): Promise<void> => writeFileAtomic(join(dir, FILE), TEXT, fsync);
