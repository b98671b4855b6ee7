/**
 * Restart and first-access time against the size of DATA_DIR.
 *
 *   npm run bench:restart                      sizes 10, 50 and 250 MB (1 MB = 1,000,000 bytes)
 *   npm run bench:restart -- --sizes 20,100    other sizes
 *   npx tsx bench/restart.ts --quick           one size of 25 MB (a smoke run)
 *
 * For each size, a DATA_DIR is built in a temporary folder (removed at the end) with the built server
 * (`dist/bundle/main.js`, `npm run compile` rebuilds it):
 *   1. a session `big` of 10,000 retail calls (10.5 MB) and 200 sessions of 20 calls (10 below 30 MB), over
 *      HTTP, then SIGTERM (snapshots);
 *   2. clones of those sessions (snapshot and journal file) under new ids (`pad-<n>`, clones of `big` while
 *      one fits) up to the size;
 *   3. ~8 MB (1 MB below 30 MB) of calls across 50 new sessions (`wal-<n>`), then SIGKILL: the write-ahead log
 *      as a crash leaves it.
 * Then, on copies of that folder (a SIGTERM checkpoints, so each run starts from a pristine copy):
 *   - the server is started 5 times: spawn to the first `GET /health` answering 200, and spawn to `/health`
 *     reporting `sessions.loading` 0 (every session read back in the background); and 5 times on an empty
 *     DATA_DIR, for comparison;
 *   - in this process, 5 times: `SessionPersistence.open()` (the index), the first access of `big` (a session
 *     of 10,000 calls never touched), and reading its whole journal (its 10,000 entries parsed).
 * Prints a Markdown table; exits 1 when a budget is missed: a restart costing more than 1,000 ms over an
 * empty-folder start (p50), or a first access of more than 100 ms (p50).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Pool, request } from 'undici';
import { SessionPersistence } from '../server/core/sessions/persistence.js';
import { decodeSnapshot, encodeSnapshotHead, type SnapshotHead } from '../server/core/sessions/snapshot-file.js';
import { SessionStore } from '../server/core/sessions/store.js';
import { fixtureBases } from '../test/helpers/server.js';
import { BASELINES } from '../test/helpers/valid-calls.js';
import { freePort } from './child-server.js';

const MAIN = fileURLToPath(new URL('../dist/bundle/main.js', import.meta.url));
const MB = 1_000_000;
const RUNS = 5;
const IN_FLIGHT = 32;
const BIG_CALLS = 10_000;
/** Below this size, fewer small sessions and a smaller log, so that a folder of 10 MB can be made. */
const SMALL_FOLDER = 30 * MB;
const smallSessions = (target: number) => (target < SMALL_FOLDER ? 10 : 200);
const walTarget = (target: number) => (target < SMALL_FOLDER ? MB : 8 * MB);
const SMALL_CALLS = 20;
const WAL_SESSIONS = 50;
const WAL_BATCH = 500;
const POLL_MS = 5;
const WAIT_LIMIT_MS = 180_000;
const RESTART_BUDGET_MS = 1_000;
const FIRST_ACCESS_BUDGET_MS = 100;

// ---- the server as a child process --------------------------------------------------------------

interface Server {
  child: ChildProcess;
  origin: string;
  spawnedAt: number;
  exited: Promise<number | null>;
}

/** Every child started, so that a failure does not leave one running. */
const children = new Set<ChildProcess>();
/** Warnings and errors the servers printed (pino levels 40 and up, or lines that are not JSON). */
const serverSaid = new Set<string>();

function watchOutput(child: ChildProcess): void {
  let rest = '';
  const read = (chunk: Buffer) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '' && isProblem(line)) serverSaid.add(line.slice(0, 500));
  };
  child.stdout?.on('data', read);
  child.stderr?.on('data', read);
}

function isProblem(line: string): boolean {
  try {
    return (JSON.parse(line) as { level?: number }).level! >= 40;
  } catch {
    return true;
  }
}

async function spawnServer(dataDir: string): Promise<Server> {
  const port = await freePort();
  const spawnedAt = performance.now();
  const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info' };
  const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  watchOutput(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  void exited.then(() => children.delete(child));
  return { child, origin: `http://127.0.0.1:${port}`, spawnedAt, exited };
}

interface Health {
  sessions: { live: number; loading: number };
}

/** `GET /health` once: its body when it answers 200, undefined when it does not (yet). */
async function health(server: Server): Promise<Health | undefined> {
  try {
    const answer = await request(`${server.origin}/health`);
    const body = (await answer.body.json()) as Health;
    return answer.statusCode === 200 ? body : undefined;
  } catch {
    return undefined;
  }
}

/** Polls /health every POLL_MS until `done` holds; the milliseconds since the spawn, and the last answer. */
async function pollHealth(server: Server, done: (body: Health) => boolean): Promise<{ ms: number; body: Health }> {
  for (;;) {
    const body = await health(server);
    if (body && done(body)) return { ms: performance.now() - server.spawnedAt, body };
    if (server.child.exitCode !== null || server.child.signalCode !== null) throw new Error(`the server exited (${server.child.exitCode}) before answering`);
    if (performance.now() - server.spawnedAt > WAIT_LIMIT_MS) throw new Error(`the server did not answer within ${WAIT_LIMIT_MS} ms`);
    await sleep(POLL_MS);
  }
}

const untilUp = (server: Server) => pollHealth(server, () => true);
const untilAllReadBack = (server: Server) => pollHealth(server, (body) => body.sessions.loading === 0);

/** SIGTERM (a final checkpoint, exit 0) or SIGKILL (a crash), and the child gone. */
async function stop(server: Server, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  const code = await server.exited;
  if (signal === 'SIGTERM' && code !== 0) throw new Error(`the server exited with ${code} on SIGTERM`);
}

// ---- retail calls over HTTP ---------------------------------------------------------------------

const RETAIL = BASELINES.retail!();
const READS = ['get_user_details', 'get_order_details', 'get_product_details'] as const;

function argsOf(tool: string): Record<string, unknown> {
  const args = RETAIL[tool]?.[0]?.args;
  if (!args) throw new Error(`no valid arguments for retail/${tool} in test/helpers/valid-calls.ts`);
  return args;
}

/** The i-th call of a session: the reads in turn, every 4th a `modify_user_address` write with its own zip. */
function nthCall(i: number): { tool: string; args: Record<string, unknown> } {
  if (i % 4 === 3) return { tool: 'modify_user_address', args: { ...argsOf('modify_user_address'), zip: String(10_000 + (i % 89_999)) } };
  const tool = READS[i % READS.length]!;
  return { tool, args: argsOf(tool) };
}

/** One call (session id, call number in it), which must answer 200. */
type Call = readonly [session: string, i: number];

async function post(pool: Pool, [session, i]: Call): Promise<void> {
  const { tool, args } = nthCall(i);
  const path = `/s/${session}/retail/tools/${tool}`;
  const answer = await pool.request({ path, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(args) });
  const text = await answer.body.text();
  if (answer.statusCode !== 200) throw new Error(`POST ${path} answered ${answer.statusCode}: ${text.slice(0, 300)}`);
}

/** Makes the calls, IN_FLIGHT at a time. */
async function callAll(server: Server, calls: readonly Call[]): Promise<void> {
  const pool = new Pool(server.origin, { connections: IN_FLIGHT });
  let next = 0;
  const worker = async () => {
    while (next < calls.length) await post(pool, calls[next++]!);
  };
  try {
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  } finally {
    await pool.close();
  }
}

/** Calls `from` to `from + count` of `sessions` sessions, interleaved: call k is call k / sessions of session k % sessions. */
function interleaved(ids: (n: number) => string, sessions: number, from: number, count: number): Call[] {
  return Array.from({ length: count }, (_, j) => [ids((from + j) % sessions), Math.floor((from + j) / sessions)] as const);
}

// ---- building DATA_DIR --------------------------------------------------------------------------

interface Folder {
  bytes: number;
  sessions: number;
  pads: number;
  small: number;
  walBytes: number;
}

const snapshotDir = (dir: string) => join(dir, 'sessions');
const smallId = (n: number) => `small-${n + 1}`;
const walId = (n: number) => `wal-${n + 1}`;

function filesIn(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesIn(join(dir, entry.name)) : entry.isFile() ? [join(dir, entry.name)] : [],
  );
}

const sizeOf = (files: readonly string[]) => files.reduce((sum, file) => sum + statSync(file).size, 0);
const folderBytes = (dir: string) => sizeOf(filesIn(dir));
const walBytes = (dir: string) =>
  sizeOf(
    readdirSync(dir)
      .filter((name) => /^wal-\d+\.jsonl$/.test(name))
      .map((name) => join(dir, name)),
  );

/** Step 1: `big` and the small sessions, through the server, then a clean stop (snapshots written). */
async function generateSessions(dir: string, small: number): Promise<void> {
  const server = await spawnServer(dir);
  await untilUp(server);
  await callAll(server, [...interleaved(() => 'big', 1, 0, BIG_CALLS), ...interleaved(smallId, small, 0, small * SMALL_CALLS)]);
  await stop(server, 'SIGTERM');
  if (!existsSync(join(snapshotDir(dir), 'big.json'))) throw new Error('no sessions/big.json after the first server stopped');
}

/** A saved session to clone: its snapshot (one line) and its journal file. */
interface Template {
  head: SnapshotHead;
  journal: Buffer;
  bytes: number;
}

function template(sessions: string, id: string): Template {
  const decoded = decodeSnapshot(readFileSync(join(sessions, `${id}.json`), 'utf8'), false);
  if (!('head' in decoded)) throw new Error(`sessions/${id}.json is not a snapshot of this format`);
  const journal = readFileSync(join(sessions, `${id}.${decoded.head.journal.generation}.journal`));
  return { head: decoded.head, journal, bytes: journal.length + encodeSnapshotHead(decoded.head).length };
}

/** A saved session under another id: its snapshot's line rewritten, its journal file copied. */
function writeClone(sessions: string, { head, journal }: Template, id: string): number {
  const text = encodeSnapshotHead({ ...head, id, options: { ...head.options, id } });
  writeFileSync(join(sessions, `${id}.json`), text);
  writeFileSync(join(sessions, `${id}.${head.journal.generation}.journal`), journal);
  return Buffer.byteLength(text) + journal.length;
}

/** Step 2: clones of `big` while one fits, then of small sessions, until the folder holds `target` bytes. */
function padTo(dir: string, target: number, small: number): number {
  const sessions = snapshotDir(dir);
  const big = template(sessions, 'big');
  const smalls = Array.from({ length: small }, (_, n) => template(sessions, smallId(n)));
  let size = folderBytes(dir);
  let pads = 0;
  while (size < target) {
    const chosen = target - size >= big.bytes ? big : smalls[pads % smalls.length]!;
    size += writeClone(sessions, chosen, `pad-${++pads}`);
  }
  return pads;
}

/** Step 3: `bytes` of calls across new sessions, then SIGKILL: records in the logs and not in snapshots. */
async function leaveWal(dir: string, bytes: number): Promise<void> {
  const server = await spawnServer(dir);
  await untilUp(server);
  for (let made = 0; walBytes(dir) < bytes; made += WAL_BATCH) await callAll(server, interleaved(walId, WAL_SESSIONS, made, WAL_BATCH));
  await stop(server, 'SIGKILL');
}

function countSessions(dir: string): number {
  const ids = new Set(
    readdirSync(snapshotDir(dir))
      .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
      .map((name) => name.slice(0, -'.json'.length)),
  );
  for (let n = 0; n < WAL_SESSIONS; n++) ids.add(walId(n));
  ids.delete('default');
  return ids.size;
}

async function buildDataDir(dir: string, targetBytes: number): Promise<Folder> {
  mkdirSync(dir, { recursive: true });
  const small = smallSessions(targetBytes);
  await generateSessions(dir, small);
  const pads = padTo(dir, targetBytes - walTarget(targetBytes), small);
  await leaveWal(dir, walTarget(targetBytes));
  return { bytes: folderBytes(dir), sessions: countSessions(dir), pads, small, walBytes: walBytes(dir) };
}

/** `to` made again as a copy of `from`. */
function restore(from: string, to: string): void {
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true });
}

// ---- measuring ----------------------------------------------------------------------------------

interface Restarts {
  health: number[];
  allReadBack: number[];
  /** /health's `sessions.live` at its first answer: every saved session. */
  live: number;
}

async function timeRestarts(dir: string, pristine: string): Promise<Restarts> {
  const result: Restarts = { health: [], allReadBack: [], live: 0 };
  for (let run = 0; run < RUNS; run++) {
    restore(pristine, dir);
    const server = await spawnServer(dir);
    const up = await untilUp(server);
    result.health.push(up.ms);
    result.live = up.body.sessions.live;
    result.allReadBack.push((await untilAllReadBack(server)).ms);
    await stop(server, 'SIGTERM');
  }
  return result;
}

async function timeEmptyStarts(root: string): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const dir = mkdtempSync(join(root, 'empty-'));
    const server = await spawnServer(dir);
    times.push((await untilUp(server)).ms);
    await stop(server, 'SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
  return times;
}

interface InProcess {
  open: number[];
  firstAccess: number[];
  journal: number[];
}

const LOGGER = {
  info: () => undefined,
  warn: (message: string) => serverSaid.add(`in-process: ${message}`),
  error: (_details: object, message: string) => serverSaid.add(`in-process: ${message}`),
};

/** The index read, the first access of `big` (10,000 calls), and its whole journal, in this process (no HTTP). */
async function timeFirstAccess(dir: string, pristine: string): Promise<InProcess> {
  const result: InProcess = { open: [], firstAccess: [], journal: [] };
  const bases = await fixtureBases();
  for (let run = 0; run < RUNS; run++) {
    restore(pristine, dir);
    const store = new SessionStore({ bases, ttlMs: 3_600_000, maxSessions: 100_000, defaultSeed: '0' });
    const persistence = new SessionPersistence({ dir, intervalMs: 3_600_000 }, store, LOGGER);
    const opening = performance.now();
    await persistence.open();
    result.open.push(performance.now() - opening);
    // The background loader runs on setImmediate: nothing is read back before these synchronous calls.
    if (store.peek('big')) throw new Error('big was read back before its first access');
    result.firstAccess.push(timed(() => store.get('big')));
    const big = store.get('big');
    let entries = 0;
    result.journal.push(timed(() => (entries = big?.journalSince(0).length ?? 0)));
    if (entries !== BIG_CALLS) throw new Error(`big's journal holds ${entries} entries, not ${BIG_CALLS}`);
    await persistence.close();
  }
  return result;
}

/** Milliseconds a synchronous piece of work takes. */
function timed(work: () => unknown): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

interface Row {
  megabytes: number;
  folder: Folder;
  empty: number[];
  restarts: Restarts;
  inProcess: InProcess;
}

async function measureSize(root: string, megabytes: number): Promise<Row> {
  const dir = join(root, `${megabytes}mb`);
  const pristine = join(root, `${megabytes}mb-pristine`);
  progress(`${megabytes} MB: building DATA_DIR`);
  const folder = await buildDataDir(dir, megabytes * MB);
  cpSync(dir, pristine, { recursive: true });
  progress(`${megabytes} MB: ${mb(folder.bytes)} MB, ${folder.sessions} sessions; timing starts`);
  const empty = await timeEmptyStarts(root);
  const restarts = await timeRestarts(dir, pristine);
  progress(`${megabytes} MB: timing first access in process`);
  const inProcess = await timeFirstAccess(dir, pristine);
  rmSync(dir, { recursive: true, force: true });
  rmSync(pristine, { recursive: true, force: true });
  return { megabytes, folder, empty, restarts, inProcess };
}

// ---- report -------------------------------------------------------------------------------------

function p50(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const mb = (bytes: number) => (bytes / MB).toFixed(1);
const ms = (value: number, digits = 0) => value.toFixed(digits);
const withMax = (values: readonly number[], digits = 0) => `${ms(p50(values), digits)} (${ms(Math.max(...values), digits)})`;

const HEADER = [
  'size MB',
  'sessions',
  'start to /health p50 (max) ms',
  'empty-folder start p50 ms',
  'all read back p50 ms',
  'index open p50 ms',
  'first access of a 10,000-call session p50 (max) ms',
  'journal of 10,000 entries read p50 ms',
];

function tableRow({ folder, empty, restarts, inProcess }: Row): string[] {
  return [
    mb(folder.bytes),
    String(folder.sessions),
    withMax(restarts.health),
    ms(p50(empty)),
    ms(p50(restarts.allReadBack)),
    ms(p50(inProcess.open), 1),
    withMax(inProcess.firstAccess, 1),
    ms(p50(inProcess.journal), 1),
  ];
}

const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;

function printTable(rows: readonly Row[]): void {
  console.log(line(HEADER));
  console.log(line(HEADER.map(() => '---:')));
  for (const row of rows) console.log(line(tableRow(row)));
  console.log();
  for (const { megabytes, folder, restarts } of rows) {
    const live = restarts.live === folder.sessions ? '' : ` (/health counted ${restarts.live})`;
    // `big`, the small sessions and the log make a floor no target goes below.
    const floor = folder.pads === 0 && folder.bytes > megabytes * MB ? ' (above the size asked: the smallest folder this recipe makes)' : '';
    console.log(
      `${megabytes} MB: ${mb(folder.bytes)} MB${floor} in ${folder.sessions} sessions${live}: big, ${folder.small} small, ${folder.pads} pads, ` +
        `${WAL_SESSIONS} only in the write-ahead log (${mb(folder.walBytes)} MB). ${RUNS} runs each.`,
    );
  }
}

/** The budgets missed, one line each. */
function missedBudgets(rows: readonly Row[]): string[] {
  return rows.flatMap(({ megabytes, empty, restarts, inProcess }) => {
    const overhead = p50(restarts.health) - p50(empty);
    const firstAccess = p50(inProcess.firstAccess);
    return [
      ...(overhead > RESTART_BUDGET_MS
        ? [`${megabytes} MB: start to /health p50 is ${ms(overhead)} ms over an empty folder's (budget ${RESTART_BUDGET_MS} ms)`]
        : []),
      ...(firstAccess > FIRST_ACCESS_BUDGET_MS ? [`${megabytes} MB: first access p50 is ${ms(firstAccess, 1)} ms (budget ${FIRST_ACCESS_BUDGET_MS} ms)`] : []),
    ];
  });
}

function progress(message: string): void {
  process.stderr.write(`bench:restart: ${message}\n`);
}

// ---- main ---------------------------------------------------------------------------------------

function sizesFromArguments(): number[] {
  const { values } = parseArgs({ options: { sizes: { type: 'string', default: '10,50,250' }, quick: { type: 'boolean', default: false } } });
  if (values.quick) return [25];
  const sizes = values.sizes.split(',').map(Number);
  if (sizes.some((size) => !(size > 0))) throw new Error(`--sizes takes sizes in MB separated by commas, not '${values.sizes}'`);
  return sizes;
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

async function main(): Promise<void> {
  const sizes = sizesFromArguments();
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run compile first`);
  const root = mkdtempSync(join(tmpdir(), 'wildtools-restart-'));
  const rows: Row[] = [];
  try {
    for (const size of sizes) rows.push(await measureSize(root, size));
  } catch (error) {
    for (const said of serverSaid) process.stderr.write(`${said}\n`);
    throw error;
  } finally {
    for (const child of children) child.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  }
  printTable(rows);
  if (serverSaid.size > 0) console.log(`\nWarnings and errors printed:\n${[...serverSaid].join('\n')}`);
  const missed = missedBudgets(rows);
  for (const budget of missed) console.log(`Budget missed: ${budget}`);
  if (missed.length > 0) process.exitCode = 1;
}

await main();
