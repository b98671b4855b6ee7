import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { ProblemError, problem } from '../problem.js';
import { frame, unframe } from './framing.js';
import type { JournalEntry } from './journal.js';
import { followsSnapshot, LogOrder, type Ordered } from './log-order.js';
import type { Session, SessionOptions } from './session.js';
import { decodeJournal, decodeSnapshot, type Snapshot } from './snapshot-file.js';
import { type DamagedSession, DEFAULT_SESSION, type SessionLoader, type SessionStore } from './store.js';
import type { SubmittedAnswer } from '../../../scoring/score.js';

/** One line of the write-ahead log. `v` counts the records of a session, `n` those of all logs (absent in format 1). */
export type LogRecord = (
  | { t: 'create'; s: string; v: number; options: SessionOptions }
  | { t: 'call'; s: string; v: number; entry: JournalEntry }
  /** `text` alone: an answer recorded before answers were typed. */
  | { t: 'answer'; s: string; v: number; answer?: SubmittedAnswer; text?: string }
  | { t: 'reset'; s: string; v: number }
  | { t: 'delete'; s: string; v: number }
) & { n?: number };

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(details: object, message: string): void;
}

/** DATA_DIR cannot be read back: the message names the file (and line) and what to do. */
export class PersistenceError extends Error {}

export interface ReadBackOptions {
  dir: string;
  /** Format 1: no checksums, no sequence numbers. */
  legacy: boolean;
  recover: 'stop' | 'quarantine';
  log: Logger;
}

/** A log record found at start: its JSON is parsed only when its session is read back. */
interface IndexedRecord {
  json: string;
  where: string;
  v: number;
}

/** A saved session not in memory yet: whether it has a snapshot, and the log records beyond it. */
interface Saved {
  snapshot: boolean;
  records: IndexedRecord[];
}

/** A session's journal file as it is on disk (see JournalRef). */
export interface JournalFile {
  generation: number;
  bytes: number;
  lines: number;
  to: number;
}

/**
 * Told of each session read back: its change number, whether log records were replayed on its snapshot,
 * and its journal file (absent for a snapshot of format 1 or 2, whose journal was inside it).
 */
export type LoadedListener = (id: string, version: number, replayed: boolean, journal?: JournalFile) => void;

export const walPath = (dir: string, number: number): string => join(dir, `wal-${String(number).padStart(6, '0')}.jsonl`);

/** A session's journal file of one generation (a new generation when it is written whole again). */
export const journalFilePath = (dir: string, id: string, generation: number): string => join(dir, 'sessions', `${id}.${generation}.journal`);

/**
 * The sessions DATA_DIR holds, read back lazily: at start only an index (the snapshots' names and the
 * logs' records, whose checksums and order are checked), then each session on first use, and the rest
 * in the background, one per turn of the event loop. Damage found at start stops it (or sets the
 * sessions concerned aside: DATA_RECOVER=quarantine); damage found later holds that session back with
 * a 503 naming it (or sets it aside).
 */
export class SavedSessions implements SessionLoader {
  private readonly index = new Map<string, Saved>();
  private readonly quarantine = new Map<string, DamagedSession>();
  private readonly heldBack = new Map<string, DamagedSession>();
  private starting = true;
  private withRecords = 0;
  private background: NodeJS.Immediate | undefined;
  /** The numbers of the logs read at start (and kept until their records are in snapshots). */
  logs: number[] = [];
  /** The number the next log record gets. */
  nextN = 1;
  /** The highest log number found (a log set aside included): the next log is numbered after it. */
  lastLog = 0;

  constructor(
    private readonly options: ReadBackOptions,
    private readonly store: SessionStore,
    private readonly loaded: LoadedListener,
  ) {}

  private get snapshotDir(): string {
    return join(this.options.dir, 'sessions');
  }

  snapshotPath(id: string): string {
    return join(this.snapshotDir, `${id}.json`);
  }

  /** Saved sessions not read back yet (held-back ones included). */
  get unloaded(): number {
    return this.index.size;
  }

  /** True while sessions with log records are still unread: the logs read at start must stay. */
  get recordsPending(): boolean {
    return this.withRecords > 0;
  }

  get quarantined(): DamagedSession[] {
    return [...this.quarantine.values()];
  }

  get damaged(): DamagedSession[] {
    return [...this.heldBack.values()];
  }

  has(id: string): boolean {
    return this.index.has(id);
  }

  /** Reads the index: snapshot names, and the logs' records, checked. Damage stops the start here (or quarantines). */
  async scan(): Promise<void> {
    const { dir, legacy } = this.options;
    for (const name of await readdir(this.snapshotDir)) {
      if (name.endsWith('.json') && !name.startsWith('.')) this.index.set(name.slice(0, -'.json'.length), { snapshot: true, records: [] });
    }
    const logs = (await readdir(dir))
      .map((name) => /^wal-(\d+)\.jsonl$/.exec(name))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => Number(match[1]))
      .sort((a, b) => a - b);
    this.lastLog = logs.at(-1) ?? 0;
    const texts = await Promise.all(logs.map((number) => readFile(walPath(dir, number), 'utf8')));
    // Only the last log that holds anything may end in a torn record: writes reach the logs in order.
    const lastWithRecords = texts.findLastIndex((text) => text.trim() !== '');
    // `default` always exists: its records need no creation before them.
    const order = new LogOrder((id) => id === DEFAULT_SESSION || this.index.get(id)?.snapshot === true);
    let kept = logs.length;
    reading: for (const [index, text] of texts.entries()) {
      for (const record of this.records(walPath(dir, logs[index]!), text, index === lastWithRecords)) {
        const wrong = 'damage' in record ? record.damage : legacy ? undefined : order.check(record.head);
        if ('damage' in record || wrong !== undefined) {
          // Nothing from here on can be trusted: the sessions it names are set aside, with the logs.
          const rest = [text.split('\n').slice(record.line).join('\n'), ...texts.slice(index + 1)];
          this.atStart(record.where, wrong ?? 'damaged', sessionsNamedIn(rest));
          kept = index;
          break reading;
        }
        const { head, json, where } = record;
        const saved = this.index.get(head.s) ?? { snapshot: false, records: [] };
        this.index.set(head.s, saved);
        saved.records.push({ json, where, v: head.v });
        if (Number.isSafeInteger(head.n)) this.nextN = Math.max(this.nextN, head.n + 1);
      }
    }
    this.logs = logs.slice(0, kept);
    for (const number of logs.slice(kept)) this.setAside(walPath(dir, number));
    for (const { session } of this.quarantine.values()) {
      const saved = session === undefined ? undefined : this.index.get(session);
      if (!saved) continue;
      if (saved.snapshot) this.setAside(this.snapshotPath(session!));
      for (const path of this.journalFilesOf(session!)) this.setAside(path);
      // Its records before the damage are in logs that will go once the others are folded.
      if (saved.records.length > 0) this.setAsideRecords(session!, saved.records);
      this.index.delete(session!);
    }
    for (const saved of this.index.values()) if (saved.records.length > 0) this.withRecords++;
  }

  /** Reads back the sessions that must be in memory to serve: `default` (always there), and, for format 1, all. */
  openForServing(): void {
    if (this.options.legacy) this.loadAll();
    else if (this.index.has('default')) this.load('default');
    this.starting = false;
  }

  /** Reads a session back into the store; a 503 problem when its data is damaged (DATA_RECOVER=stop). */
  load(id: string): void {
    const held = this.heldBack.get(id);
    if (held) throw heldBackProblem(held);
    const saved = this.index.get(id);
    if (!saved) return;
    const failure = this.read(id, saved);
    if (failure === undefined) {
      this.forgetIndexed(id, saved);
      return;
    }
    this.store.forget(id);
    if (this.options.recover === 'quarantine' && this.setAsideSession(id, saved, failure)) return;
    if (this.starting) throw new PersistenceError(`${failure.where}: ${failure.problem}. ${REMEDY}`);
    this.options.log.error({}, `${failure.where}: ${failure.problem}; session ${id} is held back until DATA_DIR is repaired`);
    const entry = { session: id, ...failure };
    this.heldBack.set(id, entry);
    throw heldBackProblem(entry);
  }

  /** Sets a damaged session aside (DATA_RECOVER=quarantine); false when its files cannot be moved (it is held back then). */
  private setAsideSession(id: string, saved: Saved, failure: DamagedSession): boolean {
    try {
      if (saved.snapshot) this.setAside(this.snapshotPath(id));
      for (const path of this.journalFilesOf(id)) this.setAside(path);
      if (saved.records.length > 0) this.setAsideRecords(id, saved.records);
    } catch (error) {
      this.options.log.error({ err: error }, `session ${id} could not be set aside in DATA_DIR/quarantine`);
      return false;
    }
    this.options.log.error({}, `${failure.where}: ${failure.problem}; set aside: ${id}`);
    this.quarantine.set(id, { session: id, ...failure });
    this.forgetIndexed(id, saved);
    return true;
  }

  /** Reads back every saved session but the held-back ones (`withRecords`: only those with log records). */
  loadAll(withRecords = false): void {
    for (const [id, saved] of [...this.index]) {
      if (this.heldBack.has(id) || (withRecords && saved.records.length === 0)) continue;
      try {
        this.load(id);
      } catch (error) {
        if (!(error instanceof ProblemError)) throw error;
      }
    }
  }

  /** Reads the sessions back one per turn of the event loop, those with log records first; `recordsIn` once those are. */
  loadInBackground(recordsIn: () => void): void {
    const ids = [...this.index].sort(([, a], [, b]) => Number(b.records.length > 0) - Number(a.records.length > 0)).map(([id]) => id);
    let next = 0;
    let told = false;
    const step = () => {
      const id = ids[next++];
      if (id !== undefined && this.index.has(id) && !this.heldBack.has(id)) {
        try {
          this.load(id);
        } catch (error) {
          // Held back (a 503 for its users); anything else is logged, never thrown out of the event loop.
          if (!(error instanceof ProblemError)) this.options.log.error({ err: error }, `session ${id} could not be read back`);
        }
      }
      if (!told && !this.recordsPending) {
        told = true;
        recordsIn();
      }
      this.background = next < ids.length ? setImmediate(step) : undefined;
    };
    this.background = setImmediate(step);
  }

  stop(): void {
    if (this.background) clearImmediate(this.background);
    this.background = undefined;
  }

  private forgetIndexed(id: string, saved: Saved): void {
    if (this.index.delete(id) && saved.records.length > 0) this.withRecords--;
  }

  /** Rebuilds one session from its snapshot and records; what is wrong and where, if it cannot. */
  private read(id: string, saved: Saved): DamagedSession | undefined {
    let version = 0;
    let journalFile: JournalFile | undefined;
    let session = this.store.peek(id);
    if (saved.snapshot) {
      const path = this.snapshotPath(id);
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (error) {
        return { where: path, problem: `it cannot be read (${(error as Error).message})` };
      }
      const decoded = decodeSnapshot(text, this.options.legacy);
      if ('damage' in decoded) return { where: decoded.line === undefined ? path : `${path}:${decoded.line}`, problem: decoded.damage };
      const found = 'head' in decoded ? decoded.head.id : decoded.whole.id;
      if (found !== id) return { where: path, problem: `it holds session ${JSON.stringify(found)}, not ${id}` };
      let snapshot: Snapshot;
      if ('head' in decoded) {
        const ref = decoded.head.journal;
        const journalPath = journalFilePath(this.options.dir, id, ref.generation);
        let file: Buffer;
        try {
          file = readFileSync(journalPath);
        } catch (error) {
          return { where: journalPath, problem: `it cannot be read (${(error as Error).message})` };
        }
        const entries = decodeJournal(file, ref);
        if ('damage' in entries) return { where: entries.line === undefined ? journalPath : `${journalPath}:${entries.line}`, problem: entries.damage };
        snapshot = { ...decoded.head, journal: entries };
        journalFile = { generation: ref.generation, bytes: ref.bytes, lines: ref.lines, to: ref.to };
      } else snapshot = decoded.whole;
      try {
        session ??= this.store.restore(id, snapshot.options, this.instanceFor(id, snapshot.options));
        session.load(snapshot);
      } catch (error) {
        return { where: path, problem: error instanceof Unreadable ? error.message : `it cannot be loaded (${(error as Error).message})` };
      }
      version = snapshot.version;
      const first = saved.records[0];
      const gap = first && !this.options.legacy ? followsSnapshot(id, first.v, version) : undefined;
      if (gap !== undefined) return { where: first!.where, problem: gap };
    }
    for (const { json, where, v } of saved.records) {
      if (v <= version) continue;
      version = v;
      try {
        session = this.replay(id, session, JSON.parse(json) as LogRecord, json.length);
      } catch (error) {
        return { where, problem: error instanceof Unreadable ? error.message : `cannot apply the log record (${(error as Error).message})` };
      }
    }
    this.loaded(id, version, saved.records.length > 0, journalFile);
    return undefined;
  }

  /** Applies one log record to the session (undefined: none yet, or deleted); the session after it. */
  private replay(id: string, session: Session | undefined, record: LogRecord, bytes: number): Session | undefined {
    const live = () => session ?? this.store.restore(id, {});
    switch (record.t) {
      case 'create':
        return session ?? this.store.restore(id, record.options, this.instanceFor(id, record.options));
      case 'call': {
        const target = live();
        target.replay(record.entry, bytes);
        return target;
      }
      case 'answer': {
        const target = live();
        target.answers.push(record.answer ?? { text: record.text ?? '' });
        return target;
      }
      case 'reset':
        session?.reset();
        return session;
      case 'delete':
        this.store.forget(id);
        return this.store.peek(id);
      default:
        throw new Error(`unknown record type ${JSON.stringify((record as { t: unknown }).t)}`);
    }
  }

  /** The task instance a session runs, built again from its options. */
  private instanceFor(id: string, options: SessionOptions) {
    try {
      return this.store.instanceOf(options);
    } catch (error) {
      throw new Unreadable(`cannot rebuild the task of session ${id} (${(error as Error).message})`);
    }
  }

  /**
   * Damage found in the logs at start. By default the start stops, naming the file, the record and what is
   * wrong; with DATA_RECOVER=quarantine, the sessions concerned are moved to DATA_DIR/quarantine and left out.
   */
  private atStart(where: string, what: string, sessions: readonly string[]): void {
    if (this.options.recover !== 'quarantine') throw new PersistenceError(`${where}: ${what}. ${REMEDY}`);
    this.options.log.error({}, `${where}: ${what}; set aside: ${sessions.join(', ') || 'no session'}`);
    for (const id of sessions) {
      if (!this.quarantine.has(id)) this.quarantine.set(id, { session: id, where, problem: what });
    }
    if (sessions.length === 0) this.quarantine.set(`(${where})`, { where, problem: what });
  }

  /** The journal files of a session, whatever their generation. */
  private journalFilesOf(id: string): string[] {
    const prefix = `${id}.`;
    return readdirSync(this.snapshotDir)
      .filter((name) => name.startsWith(prefix) && /^\d+\.journal$/.test(name.slice(prefix.length)))
      .map((name) => join(this.snapshotDir, name));
  }

  /** Moves a file into DATA_DIR/quarantine (a missing one is no matter). */
  private setAside(path: string): void {
    try {
      renameSync(path, join(this.quarantineDir(), basename(path)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  /** Keeps a set-aside session's log records beside its snapshot: the logs they came from will go. */
  private setAsideRecords(id: string, records: readonly IndexedRecord[]): void {
    writeFileSync(join(this.quarantineDir(), `${id}.records.jsonl`), records.map(({ json }) => `${frame(json)}\n`).join(''));
  }

  private quarantineDir(): string {
    const folder = join(this.options.dir, 'quarantine');
    mkdirSync(folder, { recursive: true });
    return folder;
  }

  /**
   * The records of one log. A final line cut short (a crash during its write: never acknowledged)
   * is dropped with a warning; any other line that is not a whole record is reported as damage.
   */
  private *records(
    path: string,
    text: string,
    mayBeTorn: boolean,
  ): Generator<{ head: Ordered; json: string; where: string; line: number } | { damage: string; where: string; line: number }> {
    const lines = text.split('\n');
    for (const [i, line] of lines.entries()) {
      if (line.trim() === '') continue;
      const where = `${path}:${i + 1}`;
      const framed = this.options.legacy ? { json: line } : unframe(line);
      const head = 'json' in framed ? headOf(framed.json) : undefined;
      if (head === undefined) {
        if (mayBeTorn && i === lines.length - 1) {
          this.options.log.warn(
            `${where}: dropped a record cut short at its end (${Buffer.byteLength(line)} bytes), as a crash during its write leaves it; it was never ` +
              `acknowledged`,
          );
          return;
        }
        yield { damage: 'damage' in framed ? framed.damage : 'not a log record', where, line: i };
        return;
      }
      yield { head, json: (framed as { json: string }).json, where, line: i };
    }
  }
}

/** Data that reads well but cannot be rebuilt; its message says why. */
class Unreadable extends Error {}

const REMEDY =
  'DATA_DIR cannot be trusted from there on: restore it from a backup, or start with DATA_RECOVER=quarantine ' +
  'to set the sessions concerned aside (in DATA_DIR/quarantine) and start without them';

function heldBackProblem({ session, where, problem: what }: DamagedSession): ProblemError {
  return new ProblemError(problem(503, 'session_damaged', `Session '${session}' cannot be read back: ${where}: ${what}. ${REMEDY}.`));
}

/** Records are written with these four members first, so the index reads them without parsing the rest. */
const HEAD = /^\{"t":"(\w+)","s":"([A-Za-z0-9_.-]{1,64})","v":(\d{1,15}),"n":(\d{1,15})[,}]/;

/** A record's type, session and numbers; undefined when it is not a log record. */
function headOf(json: string): Ordered | undefined {
  const match = HEAD.exec(json);
  if (match) return { t: match[1]!, s: match[2]!, v: Number(match[3]), n: Number(match[4]) };
  // Records written before the numbers came first (format 2), or without them (format 1).
  let record: Partial<Ordered> | null;
  try {
    record = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof record !== 'object' || record === null || typeof record.s !== 'string' || typeof record.v !== 'number' || typeof record.t !== 'string')
    return undefined;
  return { t: record.t, s: record.s, v: record.v, n: record.n ?? Number.NaN };
}

/** The sessions records name in these logs' texts (read as text: they may be damaged). */
function sessionsNamedIn(texts: readonly string[]): string[] {
  const ids = new Set<string>();
  for (const text of texts) for (const match of text.matchAll(/^(?:[0-9a-f]{8} )?\{"t":"\w+","s":"([A-Za-z0-9_.-]{1,64})"/gm)) ids.add(match[1]!);
  return [...ids];
}
