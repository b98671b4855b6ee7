import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { emptyApp, NPM as npm, packInto, ROOT as root } from '../helpers/pack.js';
import { domains } from '../../domains/index.js';
import { spawnListening } from '../helpers/process.js';
import { STARTED_FAST } from '../helpers/start-path.js';

// The package as a user gets it: packed, then installed by npm into an empty folder. npm pack and npm install
// rewrite every modification time; the installed `wildtools serve` must still start as `npm start` does in the
// clone, from the bundle's code cache and the prepared databases, which the server's start line says. Then the
// cold start of each (spawn to the first answer to a tool call), in alternating rounds: printed for BENCHMARKS.md,
// never asserted. Packing skips the scripts, so that this test does not compile again: it packs dist/ as built.

const env = { ...process.env, _TAPJS_PROCESSINFO_COVERAGE_: '0', NODE_OPTIONS: '', LOG_LEVEL: 'info' };
const ROUNDS = Number(process.env['COLD_START_ROUNDS'] ?? 5);

const dir = mkdtempSync(join(tmpdir(), 'wildtools-installed-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const { tarball } = packInto(dir, env);
const app = emptyApp(dir);
execFileSync(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: app, env, stdio: 'ignore' });
const installed = join(app, 'node_modules', 'wildtools');

/** A command that serves, and what to run to start it. */
interface Start {
  name: string;
  command: string;
  args: string[];
  cwd: string;
}

// What `npm start` runs (package.json's script), without npm: npm's own start is not the server's, and npm stopped by
// SIGTERM leaves its child running. The installed bin as npx or a script runs it.
const [startCommand, ...startArgs] = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start.split(' ');
const clone: Start = { name: 'clone, npm start', command: startCommand === 'node' ? process.execPath : startCommand!, args: startArgs, cwd: root };
const bin: Start = { name: 'installed, wildtools serve', command: join(app, 'node_modules', '.bin', 'wildtools'), args: ['serve'], cwd: app };
const cloneBin: Start = { name: 'clone, wildtools serve', command: process.execPath, args: [join(root, 'dist', 'cli', 'main.js'), 'serve'], cwd: root };

// For comparison, the installed package without its artifacts: how every installed package started while the build
// named their sources by modification time, which never matched after npm install.
const bare = join(app, 'node_modules', 'wildtools-bare');
cpSync(installed, bare, { recursive: true });
for (const domain of domains) rmSync(join(bare, 'dist', 'fixtures', `${domain.name}.prepared.json`));
rmSync(join(bare, 'dist', 'bundle', 'server.cjs.cache'));
const bareBin: Start = {
  name: 'installed without its artifacts, wildtools serve',
  command: process.execPath,
  args: [join(bare, 'dist', 'cli', 'main.js'), 'serve'],
  cwd: app,
};
const STARTED_SLOW = new RegExp(
  `"msg":"started from the bundle \\(code cache absent\\); databases: ${domains.map((domain) => `${domain.name} validated`).join(', ')}"`,
);

/** Milliseconds from spawning `start` to its first answer to a tool call, and what it printed by then. */
async function coldStart(start: Start): Promise<{ ms: number; output: string }> {
  const started = performance.now();
  const server = await spawnListening(start.command, start.args, { env: { ...env, PORT: '0' }, cwd: start.cwd });
  try {
    const answer = await fetch(`${server.origin}/retail/tools/get_order_details`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', connection: 'close' },
      body: JSON.stringify({ order_id: '#W5124601' }),
    });
    await answer.text();
    if (!answer.ok) throw new Error(`${start.name}: ${answer.status}`);
    return { ms: performance.now() - started, output: server.output() };
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
}

t.test('installed, every file has a new modification time: the build stamps cannot be mtimes', async (t) => {
  for (const file of ['dist/bundle/server.cjs', 'dist/fixtures/retail.json']) {
    t.not(statSync(join(installed, file)).mtimeMs, statSync(join(root, file)).mtimeMs, file);
    t.equal(statSync(join(installed, file)).size, statSync(join(root, file)).size, `${file}: the same bytes`);
  }
});

t.test("the installed wildtools serve and the clone's npm start both start from the code cache and the prepared databases", async (t) => {
  const times = new Map<Start, number[]>([
    [clone, []],
    [bin, []],
    [cloneBin, []],
    [bareBin, []],
  ]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [start, ms] of times) {
      const run = await coldStart(start);
      t.match(run.output, start === bareBin ? STARTED_SLOW : STARTED_FAST, `${start.name}, round ${round + 1}: the start it says`);
      ms.push(run.ms);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const base = median(times.get(clone)!);
  for (const [start, ms] of times) {
    const ratio = start === clone ? '' : ` (${(median(ms) / base).toFixed(2)}× the clone's npm start)`;
    t.comment(`cold start, ${start.name}: median ${median(ms).toFixed(0)} ms${ratio} [${ms.map((value) => value.toFixed(0)).join(', ')}]`);
  }
});
