// The crash driver: writes under load, SIGKILL of the server mid-load, restart on the same DATA_DIR,
// and a check that every acknowledged write is back. Used by test/server/crash.test.ts (bounded) and
// test/crash/run.ts (long runs).
import { appendFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { Pool } from 'undici';
import { type ServerProcess, spawnServer } from '../helpers/process.js';
import { findOrder } from '../helpers/retail.js';
import { frame } from '../../server/core/sessions/framing.js';

export interface CrashOptions {
  rounds: number;
  sessions: number;
  /** Calls in flight at all times. */
  concurrency: number;
  /** Acknowledgements to reach in a round before the kill. */
  writesBeforeKill: number;
  /** DATA_FSYNC=1: a write is acknowledged once on the disk, not only handed to the OS. */
  fsync: boolean;
  dataDir: string;
  /** After the kill, append a record cut short to the newest log: in every round, or in the rounds picked. */
  tearLastLine: boolean | ((round: number) => boolean);
  log?: (line: string) => void;
}

interface ModifyArgs {
  order_id: string;
  address1: string;
  address2: string;
  city: string;
  state: string;
  country: string;
  zip: string;
}

interface Write {
  round: number;
  session: string;
  /** The write's number in its session, counted by the driver (the marker's last part). */
  seq: number;
  args: ModifyArgs;
}

interface MissingWrite extends Write {
  /** Entries that carry the write's marker but not as an acknowledged write (wrong status or args). */
  journaled: { seq: number; status: number; args: unknown }[];
}

interface RoundReport {
  round: number;
  /** Calls sent in the round, answered or not. */
  sent: number;
  /** Calls answered 200 in the round. */
  acknowledged: number;
  /** Calls answered with another status (never acknowledged). */
  refused: number;
  /** This round's acknowledged writes found after the restart. */
  found: number;
  /** Acknowledged writes of this and every earlier round, checked after the restart. */
  checked: number;
  /** Acknowledged writes (of any round so far) not found after the restart. */
  missing: MissingWrite[];
  /** Journal entries written in the round without an acknowledgement (answers lost to the kill). */
  unacknowledged: number;
  inconsistencies: string[];
  tornLine: boolean;
  /** Server start after the kill, until it listens (restore included). */
  restartSeconds: number;
  seconds: number;
}

export interface CrashReport {
  rounds: RoundReport[];
  total: {
    acknowledged: number;
    /** Acknowledged writes of every round found after the last restart. */
    found: number;
    missing: MissingWrite[];
    inconsistencies: string[];
    seconds: number;
  };
}

interface JournalEntry {
  seq: number;
  tool: string;
  status: number;
  args: unknown;
}

const TOOL = 'modify_pending_order_address';
const order = findOrder((o) => o.status === 'pending');
const address = { address1: '1 Crash Road', city: 'Austin', state: 'TX', country: 'USA', zip: '78701' };

/** The server's environment. LOG_LEVEL stays info (spawnServer's default): it finds the port in the "listening at" line. */
function serverEnv(options: CrashOptions): Record<string, string> {
  return {
    DATA_DIR: options.dataDir,
    DATA_FSYNC: options.fsync ? '1' : '0',
    SNAPSHOT_INTERVAL: '200ms',
    CHECKPOINT_BYTES: '256KB',
    // Nothing may be dropped from a journal, or acknowledged writes would look lost.
    JOURNAL_LIMIT: '10000000',
    JOURNAL_MEMORY: '64GB',
    SESSION_TTL: '24h',
    MAX_SESSIONS: String(Math.max(1000, options.sessions)),
  };
}

export async function crashRounds(options: CrashOptions): Promise<CrashReport> {
  const log = options.log ?? (() => {});
  const env = serverEnv(options);
  const started = performance.now();
  const sessions = Array.from({ length: options.sessions }, (_, i) => `s${i + 1}`);
  const writes = new Writes(sessions);
  const rounds: RoundReport[] = [];
  let server = await spawnServer(env);
  try {
    await createSessions(server, sessions);
    for (let round = 1; round <= options.rounds; round++) {
      const roundStart = performance.now();
      const load = await loadUntilKilled(server, options, () => writes.next(round));
      log(`round ${round}: killed after ${load.acknowledged.length} acknowledged of ${load.sent} sent`);
      writes.acknowledge(load.acknowledged);
      const tornLine = typeof options.tearLastLine === 'function' ? options.tearLastLine(round) : options.tearLastLine;
      if (tornLine) await tearNewestLog(options.dataDir, sessions[0]!);
      const restartStart = performance.now();
      server = await spawnServer(env);
      const restartSeconds = (performance.now() - restartStart) / 1000;
      const check = await verify(server, sessions, writes, round);
      if (tornLine && !/dropped a record cut short/.test(server.output())) {
        check.inconsistencies.push(`round ${round}: the restarted server did not report the torn record`);
      }
      const report: RoundReport = {
        round,
        sent: load.sent,
        acknowledged: load.acknowledged.length,
        refused: load.refused,
        ...check,
        tornLine,
        restartSeconds,
        seconds: (performance.now() - roundStart) / 1000,
      };
      rounds.push(report);
      log(`round ${round}: ${report.found}/${report.acknowledged} found, ${report.missing.length} missing, ${report.inconsistencies.length} inconsistencies`);
    }
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  return { rounds, total: totals(rounds, (performance.now() - started) / 1000) };
}

/** The writes of a run: what was sent (each marker once) and what was acknowledged. */
class Writes {
  private counter = 0;
  private readonly counts = new Map<string, number>();
  readonly sent = new Set<string>();
  readonly acknowledged: Write[] = [];

  constructor(private readonly sessions: readonly string[]) {}

  /** The next write, spreading the sessions evenly. */
  next(round: number): Write {
    const session = this.sessions[this.counter++ % this.sessions.length]!;
    const seq = (this.counts.get(session) ?? 0) + 1;
    this.counts.set(session, seq);
    const args = { order_id: order.order_id, ...address, address2: `${round}-${session}-${seq}` };
    this.sent.add(args.address2);
    return { round, session, seq, args };
  }

  acknowledge(writes: readonly Write[]): void {
    this.acknowledged.push(...writes);
  }
}

async function createSessions(server: ServerProcess, sessions: readonly string[]): Promise<void> {
  const pool = new Pool(server.origin, { connections: 4 });
  try {
    for (const id of sessions) {
      const response = await pool.request({ method: 'POST', path: '/sessions', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id }) });
      const text = await response.body.text();
      if (response.statusCode !== 201) throw new Error(`POST /sessions ${id} answered ${response.statusCode}: ${text}`);
    }
  } finally {
    await pool.close();
  }
}

interface Load {
  sent: number;
  acknowledged: Write[];
  refused: number;
}

/**
 * Keeps `concurrency` writes in flight until `writesBeforeKill` are acknowledged, then kills the
 * server with those calls still in flight, and waits for its exit. A 200 is an acknowledgement even
 * when it is read after the kill: the server answered it.
 */
async function loadUntilKilled(server: ServerProcess, options: CrashOptions, next: () => Write): Promise<Load> {
  const pool = new Pool(server.origin, { connections: options.concurrency });
  const load: Load = { sent: 0, acknowledged: [], refused: 0 };
  let killed = false;
  let failure: unknown;
  const kill = () => {
    if (killed) return;
    killed = true;
    server.child.kill('SIGKILL');
  };
  const worker = async () => {
    while (!killed) {
      const write = next();
      load.sent++;
      try {
        const response = await pool.request({
          method: 'POST',
          path: `/s/${write.session}/retail/tools/${TOOL}`,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(write.args),
        });
        if (response.statusCode === 200) load.acknowledged.push(write);
        else load.refused++;
        if (load.acknowledged.length >= options.writesBeforeKill) kill();
        await response.body.text();
      } catch (error) {
        // After the kill, failures are the calls it cut off; before it, they are the driver's to report.
        if (!killed) failure ??= error;
        kill();
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker));
  } finally {
    kill();
    await server.exited;
    await pool.destroy();
  }
  if (failure) throw new Error(`a write failed before the kill: ${String(failure)}`, { cause: failure });
  if (server.child.signalCode !== 'SIGKILL') throw new Error(`the server was not killed by SIGKILL (${server.child.signalCode}):\n${server.output()}`);
  return load;
}

/** Appends the first half of a call record without its newline to the newest log, as a crash during its write leaves it. */
async function tearNewestLog(dir: string, session: string): Promise<void> {
  const logs = (await readdir(dir)).filter((name) => /^wal-\d+\.jsonl$/.test(name)).sort();
  const newest = logs.at(-1);
  if (!newest) throw new Error(`no wal-*.jsonl in ${dir} to tear`);
  const entry = { seq: 0, at: 0, domain: 'retail', tool: TOOL, call: 0, args: { order_id: order.order_id, ...address, address2: 'torn' }, status: 200 };
  const record = frame(JSON.stringify({ t: 'call', s: session, v: Number.MAX_SAFE_INTEGER, entry, n: Number.MAX_SAFE_INTEGER }));
  await appendFile(join(dir, newest), record.slice(0, Math.floor(record.length / 2)));
}

type Check = Pick<RoundReport, 'found' | 'checked' | 'missing' | 'unacknowledged' | 'inconsistencies'>;

/** Reads every session back and checks it against the writes acknowledged so far. */
async function verify(server: ServerProcess, sessions: readonly string[], writes: Writes, round: number): Promise<Check> {
  const pool = new Pool(server.origin, { connections: 4 });
  const check: Check = { found: 0, checked: writes.acknowledged.length, missing: [], unacknowledged: 0, inconsistencies: [] };
  try {
    const journals = new Map<string, JournalEntry[]>();
    for (const session of sessions) {
      const journal = await getJson<JournalEntry[]>(pool, `/sessions/${session}/journal`);
      const state = await getJson<{ retail: { orders: Record<string, { address: Address }> } }>(pool, `/sessions/${session}/state`);
      if (!journal || !state) {
        // Its acknowledged writes are then reported missing.
        check.inconsistencies.push(`${session}: not found after the restart`);
        continue;
      }
      journals.set(session, journal);
      check.inconsistencies.push(...checkJournal(session, journal, writes.sent), ...checkState(session, journal, state.retail.orders[order.order_id]?.address));
    }
    const byMarker = indexByMarker(journals);
    const acknowledgedMarkers = new Set<string>();
    for (const write of writes.acknowledged) {
      acknowledgedMarkers.add(write.args.address2);
      const entries = byMarker.get(write.args.address2) ?? [];
      if (entries.some((entry) => entry.status === 200 && isDeepStrictEqual(entry.args, write.args))) {
        if (write.round === round) check.found++;
      } else {
        check.missing.push({ ...write, journaled: entries.map(({ seq, status, args }) => ({ seq, status, args })) });
      }
    }
    for (const [marker, entries] of byMarker) {
      if (marker.startsWith(`${round}-`) && !acknowledgedMarkers.has(marker)) check.unacknowledged += entries.length;
    }
  } finally {
    await pool.close();
  }
  return check;
}

/** The body of a 200; undefined for a 404. */
async function getJson<T>(pool: Pool, path: string): Promise<T | undefined> {
  const response = await pool.request({ method: 'GET', path });
  const text = await response.body.text();
  if (response.statusCode === 404) return undefined;
  if (response.statusCode !== 200) throw new Error(`GET ${path} answered ${response.statusCode}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

type Address = Omit<ModifyArgs, 'order_id'>;
const addressOf = ({ order_id: _, ...rest }: ModifyArgs): Address => rest;

const markerOf = (entry: JournalEntry): string | undefined => (entry.args as Partial<ModifyArgs> | undefined)?.address2;

/** Sequence numbers 1..n without gaps; every entry a write this driver sent, and only once. */
function checkJournal(session: string, journal: readonly JournalEntry[], sent: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  let expected = 1;
  for (const entry of journal) {
    // One report per gap: numbering resumes from the entry that broke it.
    if (entry.seq !== expected) problems.push(`${session}: seq ${entry.seq} where ${expected} was due`);
    expected = entry.seq + 1;
    const marker = markerOf(entry);
    if (entry.tool !== TOOL || marker === undefined || !sent.has(marker))
      problems.push(`${session}: seq ${entry.seq} is a call the driver never sent (${entry.tool} ${JSON.stringify(entry.args)})`);
    else if (seen.has(marker)) problems.push(`${session}: seq ${entry.seq} repeats ${marker}`);
    else if (!marker.includes(`-${session}-`)) problems.push(`${session}: seq ${entry.seq} holds ${marker}, sent to another session`);
    if (marker !== undefined) seen.add(marker);
  }
  return problems;
}

/** The order's address in the state is the one the session's last successful write set. */
function checkState(session: string, journal: readonly JournalEntry[], found: Address | undefined): string[] {
  const last = journal.findLast((entry) => entry.status === 200);
  const expected = last ? addressOf(last.args as ModifyArgs) : order.address;
  if (isDeepStrictEqual(found, expected)) return [];
  const source = last ? `the last journal entry (seq ${last.seq}) set ${JSON.stringify(expected)}` : 'yet no write is journaled';
  return [`${session}: the order's address is ${JSON.stringify(found)}, ${source}`];
}

function indexByMarker(journals: ReadonlyMap<string, readonly JournalEntry[]>): Map<string, JournalEntry[]> {
  const index = new Map<string, JournalEntry[]>();
  for (const journal of journals.values()) {
    for (const entry of journal) {
      const marker = markerOf(entry);
      if (marker === undefined) continue;
      const entries = index.get(marker);
      if (entries) entries.push(entry);
      else index.set(marker, [entry]);
    }
  }
  return index;
}

function totals(rounds: readonly RoundReport[], seconds: number): CrashReport['total'] {
  const missing = new Map<string, MissingWrite>();
  for (const round of rounds) for (const write of round.missing) missing.set(write.args.address2, write);
  const last = rounds.at(-1);
  return {
    acknowledged: rounds.reduce((sum, round) => sum + round.acknowledged, 0),
    found: last ? last.checked - last.missing.length : 0,
    missing: [...missing.values()],
    inconsistencies: rounds.flatMap((round) => round.inconsistencies),
    seconds,
  };
}
