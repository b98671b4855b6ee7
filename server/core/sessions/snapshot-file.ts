import { frame, unframe } from './framing.js';
import type { HeldEntry } from './journal.js';
import type { SavedSession, SessionOptions } from './session.js';

/** A session as written at a checkpoint: enough to rebuild it exactly. */
export interface Snapshot extends SavedSession {
  id: string;
  version: number;
  options: SessionOptions;
}

/**
 * Where a snapshot's journal is: its session's journal file of generation `generation`, whose first
 * `bytes` bytes hold `lines` lines, the last `count` of them the entries kept (the oldest are dropped
 * from the journal, not from the file, until the file is written again); `to` is the newest entry's seq.
 */
export interface JournalRef {
  generation: number;
  bytes: number;
  lines: number;
  count: number;
  to: number;
}

/** A snapshot's first line: the session without its journal, and where its journal is. */
export type SnapshotHead = Omit<Snapshot, 'journal'> & { journal: JournalRef };

/** What is wrong with a snapshot or journal file, and on which line (from 1) when it is one line. */
export interface SnapshotDamage {
  damage: string;
  line?: number;
}

/**
 * A snapshot file is one checksummed line: the session without its journal, and a reference to its
 * journal file. The journal file is appended to at each checkpoint (one checksummed line per entry), so
 * a checkpoint writes what is new, not the whole journal again. Format 2 held the journal inside the
 * snapshot's line (format 1: the same line without its checksum); both are still read.
 */
export const encodeSnapshotHead = (head: SnapshotHead): string => `${frame(JSON.stringify(head))}\n`;

/** A snapshot read back: its head, or (formats 1 and 2) the whole session with its journal inside. */
export function decodeSnapshot(text: string, legacy: boolean): { head: SnapshotHead } | { whole: Snapshot } | SnapshotDamage {
  const line = text.endsWith('\n') ? text.slice(0, -1) : text;
  const framed = legacy ? { json: text } : unframe(line);
  if ('damage' in framed) return { damage: framed.damage, line: 1 };
  let value: Snapshot | SnapshotHead;
  try {
    value = JSON.parse(framed.json);
  } catch (error) {
    return { damage: `not a session snapshot (${(error as Error).message})` };
  }
  if (typeof value !== 'object' || value === null) return { damage: 'not a session snapshot' };
  if (Array.isArray(value.journal)) return { whole: value as Snapshot };
  const ref = value.journal as Partial<JournalRef> | undefined;
  const counts = [ref?.generation, ref?.bytes, ref?.lines, ref?.count, ref?.to];
  if (!counts.every((n) => Number.isSafeInteger(n) && n! >= 0) || ref!.count! > ref!.lines!) {
    return { damage: 'not a session snapshot (its journal reference is not whole)' };
  }
  return { head: value as SnapshotHead };
}

/** Journal entries as lines of a journal file, each checksummed. */
export const encodeJournalLines = (entries: readonly HeldEntry[], texts?: (entry: HeldEntry) => string | undefined): string => {
  let text = '';
  for (const entry of entries) text += `${frame(texts?.(entry) ?? (typeof entry === 'string' ? entry : JSON.stringify(entry)))}\n`;
  return text;
};

/** The entries a journal file's first `ref.bytes` bytes keep (its last `ref.count` lines), as text; or what is wrong. */
export function decodeJournal(file: Buffer, ref: JournalRef): string[] | SnapshotDamage {
  if (file.length < ref.bytes) return { damage: `it holds ${file.length} bytes where its snapshot counts ${ref.bytes}: it was cut` };
  const text = file.subarray(0, ref.bytes).toString('utf8');
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (lines.length !== ref.lines) return { damage: `it holds ${lines.length} lines where its snapshot counts ${ref.lines}: it was changed` };
  const entries: string[] = new Array(ref.count);
  for (let i = lines.length - ref.count, k = 0; i < lines.length; i++, k++) {
    const entry = unframe(lines[i]!);
    if ('damage' in entry) return { damage: entry.damage, line: i + 1 };
    entries[k] = entry.json;
  }
  return entries;
}
