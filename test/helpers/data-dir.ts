import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Test } from 'tap';
import { findOrder } from './retail.js';
import { startServer } from './server.js';
import { DATA_FORMAT } from '../../server/core/sessions/data-format.js';
import { frame, unframe } from '../../server/core/sessions/framing.js';
import { journalFilePath } from '../../server/core/sessions/saved-sessions.js';
import { decodeJournal, decodeSnapshot } from '../../server/core/sessions/snapshot-file.js';

/** The JSON a checksummed line holds (throws on damage). */
function json(line: string): any {
  const framed = unframe(line);
  if ('damage' in framed) throw new Error(framed.damage);
  return JSON.parse(framed.json);
}

/** A snapshot of DATA_DIR, read back with its journal file, its journal entries parsed (throws on damage). */
export function readSnapshot(dir: string, id: string): any {
  const snapshot = decodeSnapshot(readFileSync(join(dir, 'sessions', `${id}.json`), 'utf8'), false);
  if ('damage' in snapshot) throw new Error(snapshot.damage);
  if ('whole' in snapshot) return snapshot.whole;
  const entries = decodeJournal(readFileSync(journalFilePath(dir, id, snapshot.head.journal.generation)), snapshot.head.journal);
  if ('damage' in entries) throw new Error(entries.damage);
  return { ...snapshot.head, journal: entries.map((entry) => JSON.parse(entry)) };
}

/** The records of a log file, in order. */
export const readLog = (path: string): any[] => readFileSync(path, 'utf8').split('\n').filter(Boolean).map(json);

/** Writes records as a log of the current format (numbered from `from`, unless they are), and the FORMAT file. */
export function writeLog(dir: string, name: string, records: readonly object[], from = 1): void {
  const lines = records.map((record, i) => frame(JSON.stringify({ n: from + i, ...record })));
  writeFileSync(join(dir, name), `${lines.join('\n')}\n`);
  writeFileSync(join(dir, 'FORMAT'), `wildtools data ${DATA_FORMAT}\n`);
}

const pending = findOrder((o) => o.status === 'pending');
export const DISK_ADDRESS = { address1: '9 Disk Lane', address2: '', city: 'Reno', state: 'NV', country: 'USA', zip: '89501' };

/**
 * A DATA_DIR as a crash leaves it: sessions `a` (three writes) and `b` (one), all in the log, no snapshot;
 * and, in `closed`, the same after a graceful stop (snapshots only).
 */
export async function crashedData(t: Test): Promise<{ crashed: string; closed: string }> {
  const root = t.testdir();
  const live = join(root, 'live');
  const closers: (() => unknown)[] = [];
  const server = await startServer({ teardown: (close) => closers.push(close) }, { persistence: { dir: live, intervalMs: 3_600_000 } });
  for (let i = 0; i < 3; i++)
    await server.call('retail', 'modify_pending_order_address', { order_id: pending.order_id, ...DISK_ADDRESS, address2: `#${i}` }, 'a');
  await server.call('retail', 'modify_pending_order_address', { order_id: pending.order_id, ...DISK_ADDRESS }, 'b');
  const crashed = join(root, 'crashed');
  cpSync(live, crashed, { recursive: true });
  for (const close of closers.reverse()) await close();
  return { crashed, closed: live };
}
