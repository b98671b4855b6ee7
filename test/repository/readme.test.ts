import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import t, { type Test } from 'tap';
import {
  type CodeBlock,
  codeBlocks,
  printedLines,
  RUNNABLE_LANGUAGES,
  RUNNABLE_MARK,
  type ShellCommand,
  shellCommands,
  showsOutput,
} from '../helpers/readme-blocks.js';
import { type ServerProcess, spawnServer } from '../helpers/process.js';
import { startServer } from '../helpers/server.js';
import { repositoryRoot } from '../tiers.js';

// Every block of README.md and examples/*/README.md marked `<!-- runnable -->` runs as written against a server
// the test starts, with its output compared to the one the block shows (test/helpers/readme-blocks.ts says how a
// block shows it). The server's address replaces `127.0.0.1:8080` / `localhost:8080` and is WILDTOOLS_URL.
//
// - sh: each command in bash, one after another, from the repository root; a command that ends with `&` runs in
//   the background until the block ends. `[VAR=value …] npm start` starts the block's server from its sources
//   (`tsx server/main.ts`, as `npm run dev` does, on a free port) with those variables; without one, the block
//   gets a fresh server of its own. A command must exit 0; one that shows no output must not answer a problem.
// - ts: with tsx; `wildtools/client` is mapped to the client's sources (client/index.ts), so that no build is
//   needed, and other packages resolve from the repository.
// - python: with python3, `python/src` on PYTHONPATH (the `wildtools` package, standard library only).
// - ts and python: a program that shows what it prints (`# → …`) prints exactly those lines.

// About 35 s on an idle 2-core machine, most of it servers and examples starting: five times that, for a loaded one.
t.setTimeout(180_000);

const DOCUMENTS = ['README.md', 'examples/README.md', ...readdirSync(`${repositoryRoot}examples`).map((folder) => `examples/${folder}/README.md`)].filter(
  (file) => existsSync(`${repositoryRoot}${file}`),
);
const blocks = DOCUMENTS.flatMap((file) => codeBlocks(repositoryRoot, file)).filter((block) =>
  (RUNNABLE_LANGUAGES as readonly string[]).includes(block.language),
);
const where = (block: CodeBlock) => `${block.file}:${block.line} (${block.section})`;
const DEFAULT_ADDRESS = /(?:http:\/\/)?(?:127\.0\.0\.1|localhost):8080/g;
const COMMAND_LIMIT_MS = 90_000;

t.comment(`${blocks.filter((block) => block.runnable).length} blocks marked runnable, ${blocks.filter((block) => !block.runnable).length} not:`);
for (const block of blocks) t.comment(`${block.runnable ? 'runs    ' : 'unmarked'} ${where(block)}: ${block.code.split('\n')[0]}`);

t.test('the documents have runnable blocks, and the mark sits right above a fence', async (t) => {
  t.ok(blocks.filter((block) => block.runnable).length >= 8, 'README.md and the examples mark their blocks');
  for (const file of DOCUMENTS) {
    const lines = readFileSync(`${repositoryRoot}${file}`, 'utf8').split('\n');
    lines.forEach((line, index) => {
      if (line.trim() === RUNNABLE_MARK) t.match(lines[index + 1], /^```(sh|ts|python)\b/, `${file}:${index + 1}: the mark is followed by a block it can run`);
    });
  }
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(file: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: repositoryRoot, env, timeout: COMMAND_LIMIT_MS, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

const withOrigin = (text: string, origin: string) => text.replace(DEFAULT_ADDRESS, origin);

/** A problem an answer is, when it is one (problem JSON with an error status). */
function problemOf(output: string): { status: number } | undefined {
  try {
    const parsed = JSON.parse(output) as { status?: unknown; type?: unknown };
    return typeof parsed.status === 'number' && parsed.status >= 400 && typeof parsed.type === 'string' ? { status: parsed.status } : undefined;
  } catch {
    return undefined;
  }
}

/** Ends a process group; false when it had ended already. */
function killGroup(pid: number): boolean {
  try {
    process.kill(-pid, 'SIGTERM');
    return true;
  } catch {
    return false;
  }
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  if (killGroup(child.pid)) await exited;
}

const START = /^((?:[A-Z][A-Z0-9_]*=\S+\s+)*)npm start\s*&?\s*(?:#.*)?$/;

async function runShell(t: Test, block: CodeBlock): Promise<void> {
  const background: ChildProcess[] = [];
  // A background command is a process group of its own (bash, npx, node): it ends as a whole, before the next block.
  t.teardown(() => Promise.all(background.map(stopGroup)));
  let server: ServerProcess | undefined;
  // …and when this process ends first (a time limit), they and the block's server end with it, not linger on ports.
  const orphans = () => {
    for (const child of background) if (child.pid !== undefined && child.exitCode === null) killGroup(child.pid);
    server?.child.kill();
  };
  process.once('exit', orphans);
  t.teardown(() => void process.off('exit', orphans));
  const stopServer = async () => {
    server?.child.kill();
    await server?.exited;
  };
  t.teardown(stopServer);
  const commands = shellCommands(block);
  let origin = commands.some((command) => START.test(command.text)) ? undefined : (await startServer(t)).origin;
  for (const command of commands) {
    const start = START.exec(command.text);
    if (start) {
      const env = Object.fromEntries(
        (start[1] ?? '')
          .trim()
          .split(/\s+/)
          .filter(Boolean)
          .map((pair) => pair.split('=', 2) as [string, string]),
      );
      await stopServer(); // one server at a time: a block that starts another means it instead
      server = await spawnServer({ ...env, HOST: '127.0.0.1' });
      t.pass(`${block.file}:${command.line}: ${command.text.split('\n')[0]} serves`);
      origin = server.origin;
      continue;
    }
    if (origin === undefined && new RegExp(DEFAULT_ADDRESS.source).test(command.text))
      throw new Error(`${block.file}:${command.line}: calls the server before the block's npm start`);
    await runCommand(t, block, command, origin ?? '', background);
  }
}

async function runCommand(t: Test, block: CodeBlock, command: ShellCommand, origin: string, background: ChildProcess[]): Promise<void> {
  const text = withOrigin(command.text, origin);
  const env = { ...process.env, WILDTOOLS_URL: origin, _TAPJS_PROCESSINFO_COVERAGE_: '0' };
  const label = `${block.file}:${command.line}: ${command.text.split('\n')[0]}`;
  if (/&\s*(#.*)?$/.test(command.text)) {
    background.push(spawn('bash', ['-c', text.replace(/&\s*(#.*)?$/, '')], { cwd: repositoryRoot, env, detached: true, stdio: 'ignore' }));
    t.pass(`${label} (in the background)`);
    return;
  }
  const result = await run('bash', ['-c', text], env);
  if (result.code !== 0) {
    t.fail(`${label} exits 0`, { code: result.code, stdout: result.stdout.slice(0, 2000), stderr: result.stderr.slice(0, 2000) });
    return;
  }
  if (command.shows.length > 0) {
    const shown = command.shows.map((line) => withOrigin(line, origin));
    t.ok(showsOutput(shown, result.stdout), `${label} prints what the block shows`, { found: result.stdout.slice(0, 2000), wanted: shown.join('\n') });
  } else t.notOk(problemOf(result.stdout), `${label} answers no problem the block does not show`, { found: result.stdout.slice(0, 2000) });
}

/** Absolute specifiers for the block's imports: `wildtools/client` is the client's sources, packages the repository's. */
function resolveImports(code: string): string {
  return code.replace(/from '([^'.][^']*)'/g, (_, specifier: string) => {
    const target = specifier === 'wildtools/client' ? pathToFileURL(`${repositoryRoot}client/index.ts`).href : import.meta.resolve(specifier);
    return `from '${target}'`;
  });
}

async function runProgram(t: Test, block: CodeBlock): Promise<void> {
  const { origin } = await startServer(t);
  const folder = mkdtempSync(join(tmpdir(), 'wildtools-readme-'));
  t.teardown(() => rmSync(folder, { recursive: true, force: true }));
  const env = { ...process.env, WILDTOOLS_URL: origin, PYTHONPATH: `${repositoryRoot}python/src`, _TAPJS_PROCESSINFO_COVERAGE_: '0' };
  const code = withOrigin(block.code, origin);
  const file = join(folder, block.language === 'ts' ? 'block.mts' : 'block.py');
  writeFileSync(file, block.language === 'ts' ? resolveImports(code) : code);
  const result = block.language === 'ts' ? await run(process.execPath, ['--import', 'tsx', file], env) : await run('python3', [file], env);
  t.equal(result.code, 0, `${where(block)} runs to its end`, { stdout: result.stdout.slice(0, 2000), stderr: result.stderr.slice(0, 2000) });
  const shown = printedLines(block);
  if (shown.length > 0) {
    const printed = result.stdout.trimEnd().split('\n');
    t.equal(printed.length, shown.length, `${where(block)} prints the ${shown.length} lines it shows`, { found: result.stdout.slice(0, 2000) });
    for (const [index, line] of shown.entries()) t.ok(showsOutput([line], printed[index] ?? ''), `${where(block)} prints ${line}`, { found: printed[index] });
  }
}

for (const block of blocks.filter((candidate) => candidate.runnable)) {
  t.test(`${where(block)}: ${block.code.split('\n')[0]}`, async (t) => {
    if (block.language === 'sh') await runShell(t, block);
    else await runProgram(t, block);
  });
}
