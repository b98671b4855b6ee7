import { frame, unframe } from './framing.js';
import type { SavedSession, SessionOptions } from './session.js';

/** A session as written at a checkpoint: enough to rebuild it exactly. */
export interface Snapshot extends SavedSession {
  id: string;
  version: number;
  options: SessionOptions;
}

/** What is wrong with a snapshot file, and on which line (from 1) when it is one line. */
export interface SnapshotDamage {
  damage: string;
  line?: number;
}

/**
 * A snapshot file: a first line with the session without its journal and the number of entries that
 * follow, then one line per journal entry, each line checksummed. Entries read back stay text until
 * something reads them (and are written back as that text), so a session of 10,000 calls loads in the
 * time its file takes to read. Format 2 wrote one line holding the journal; format 1, that line bare.
 */
export function encodeSnapshot(snapshot: Snapshot): string {
  const { journal, ...head } = snapshot;
  let text = frame(JSON.stringify({ ...head, journal: journal.length }));
  for (const entry of journal) text += `\n${frame(typeof entry === 'string' ? entry : JSON.stringify(entry))}`;
  return `${text}\n`;
}

export function decodeSnapshot(text: string, legacy: boolean): Snapshot | SnapshotDamage {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const first = legacy ? { json: text } : unframe(lines[0] ?? '');
  if ('damage' in first) return { damage: first.damage, line: 1 };
  let head: Omit<Snapshot, 'journal'> & { journal: unknown };
  try {
    head = JSON.parse(first.json);
  } catch (error) {
    return { damage: `not a session snapshot (${(error as Error).message})` };
  }
  if (typeof head !== 'object' || head === null) return { damage: 'not a session snapshot' };
  // Format 1 and 2: the journal inside the one line.
  if (Array.isArray(head.journal) && (legacy || lines.length === 1)) return head as Snapshot;
  if (!Number.isSafeInteger(head.journal)) return { damage: 'not a session snapshot (no journal)' };
  const announced = head.journal as number;
  if (lines.length - 1 !== announced) {
    return { damage: `it holds ${lines.length - 1} journal entries where its first line announces ${announced}: it was cut or added to` };
  }
  const journal: string[] = new Array(announced);
  for (let i = 1; i < lines.length; i++) {
    const entry = unframe(lines[i]!);
    if ('damage' in entry) return { damage: entry.damage, line: i + 1 };
    journal[i - 1] = entry.json;
  }
  return { ...head, journal };
}
