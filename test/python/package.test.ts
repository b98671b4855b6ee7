import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';
import { startServer } from '../helpers/server.js';

// The Python package (python/): its unittest suite, run by its coverage runner against a live server of this
// process, and a pip install of it into a fresh venv with no package index, as a machine without network has.
// python3 (with venv and pip) is part of the machine: without it this test fails, it does not skip.

const root = fileURLToPath(new URL('../../python/', import.meta.url));
const run = promisify(execFile);

/** The environment without pip's own settings (indexes, find-links, a config file): nothing to download from. */
function offline(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PIP_')));
  return { ...env, PIP_CONFIG_FILE: '/dev/null', PIP_NO_INDEX: '1', PIP_DISABLE_PIP_VERSION_CHECK: '1', PYTHONDONTWRITEBYTECODE: '1' };
}

interface Summary {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  coverage: number;
  threshold: number;
  passed: boolean;
}

t.test('the unittest suite passes against a live server, above its coverage threshold', async (t) => {
  const server = await startServer(t);
  const env = { ...process.env, WILDTOOLS_URL: server.origin, PYTHONDONTWRITEBYTECODE: '1' };
  // The runner exits 1 on a failure or a coverage below the threshold: its output says which, so read it either way.
  const { stdout, stderr } = await run('python3', ['tests/coverage_run.py'], { cwd: root, env, timeout: 120_000 }).catch(
    (error: { stdout?: string; stderr?: string; code?: unknown }) => {
      if (error.code === 'ENOENT') throw new Error('python3 is not on PATH: the Python package needs it, and the machine is meant to have it');
      return { stdout: error.stdout ?? '', stderr: error.stderr ?? '' };
    },
  );
  const line = stdout.split('\n').find((text) => text.startsWith('summary: '));
  if (!line) return t.fail(`the runner printed no summary:\n${stdout}\n${stderr}`);
  const summary = JSON.parse(line.slice('summary: '.length)) as Summary;
  t.ok(summary.tests >= 60, `the whole suite ran (${summary.tests} tests)`);
  t.same([summary.failures, summary.errors, summary.skipped], [0, 0, 0], `no failure, error or skip${summary.passed ? '' : `:\n${stderr}`}`);
  t.ok(summary.threshold >= 90, `the threshold is at least 90 % (${summary.threshold} %)`);
  t.ok(summary.coverage >= summary.threshold, `line coverage ${summary.coverage} % holds the threshold`);
  t.match(stdout, /^src\/wildtools\/client\.py +\d/m, 'coverage is reported per file');
  t.equal(summary.passed, true);
});

t.test('pip installs the package offline into a fresh venv, which imports it', async (t) => {
  const venv = mkdtempSync(join(tmpdir(), 'wildtools-venv-'));
  t.teardown(() => rmSync(venv, { recursive: true, force: true }));
  const env = offline();
  await run('python3', ['-m', 'venv', venv], { env, timeout: 120_000 });
  await run(join(venv, 'bin', 'pip'), ['install', root], { env, timeout: 180_000 });

  const script = 'import importlib.metadata as m, wildtools; print(wildtools.__file__); print(m.version("wildtools")); print(*wildtools.__all__)';
  const { stdout } = await run(join(venv, 'bin', 'python'), ['-c', script], { cwd: venv, env, timeout: 60_000 });
  const [file = '', version, names = ''] = stdout.trim().split('\n');
  t.ok(file.startsWith(venv), `imported from the venv, not the sources (${file})`);
  t.equal(version, /^version = "(.+)"$/m.exec(readFileSync(join(root, 'pyproject.toml'), 'utf8'))?.[1], 'the version pyproject.toml states');
  t.ok(existsSync(join(file, '..', 'py.typed')), 'py.typed is installed: type checkers read the hints');
  for (const name of ['Client', 'Session', 'AsyncClient', 'ProblemError', 'UnexpectedResponseError', 'pass_hat_k'])
    t.ok(names.split(' ').includes(name), `wildtools exports ${name}`);
});
