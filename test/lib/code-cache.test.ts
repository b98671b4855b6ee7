import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { type CacheUse, codeCachePath } from '../../lib/code-cache.js';

// Each load runs in a process of its own, as each start of the server does: within one process V8 finds a
// script it compiled before in memory, and would never look at the cache offered.

const SOURCE = [
  "const { sep } = require('node:path');",
  'exports.file = __filename.split(sep).pop();',
  'exports.answer = (n) => n * 2 + 1;',
  "exports.later = async () => typeof require('node:os').tmpdir;",
].join('\n');

const helper = fileURLToPath(new URL('../../lib/code-cache.ts', import.meta.url));

interface Loaded {
  cache: CacheUse;
  answer: number;
  file: string;
  later: string;
}

/** Runs `code` (which sees the helper's exports) in a process of its own, and returns what it printed. */
function inChild(code: string): string {
  const script = `const { requireWithCodeCache, writeCodeCache } = await import(${JSON.stringify(helper)});\n${code}`;
  // The test runner's options stay: the child reports its coverage, and writer and reader share V8's flags.
  return execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
}

/** Loads `file` in a new process and reports what it saw. */
function load(file: string): Loaded {
  const output = inChild(`const loaded = requireWithCodeCache(${JSON.stringify(file)});
    const { answer, file, later } = loaded.exports;
    console.log(JSON.stringify({ cache: loaded.cache, answer: answer(1), file, later: await later() }));`);
  return JSON.parse(output) as Loaded;
}

const writeCache = (file: string): string => inChild(`writeCodeCache(${JSON.stringify(file)});`);

function moduleFile(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'wildtools-code-cache-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'module.cjs');
  writeFileSync(file, SOURCE);
  return file;
}

t.test('runs a CommonJS file with its own require and __filename; once its cache is written, runs take it', async (t) => {
  const file = moduleFile(t);
  t.same(load(file), { cache: 'absent', answer: 3, file: 'module.cjs', later: 'function' }, 'no cache yet');
  writeCache(file);
  t.same(load(file), { cache: 'taken', answer: 3, file: 'module.cjs', later: 'function' });
  // npm pack and npm install rewrite every modification time: the file's bytes are what name it.
  utimesSync(file, new Date(Date.UTC(1985, 9, 26, 8, 15)), new Date(Date.UTC(1985, 9, 26, 8, 15)));
  t.same(load(file), { cache: 'taken', answer: 3, file: 'module.cjs', later: 'function' }, 'a file touched since keeps its cache');
});

t.test('a cache is not offered for a file changed since, nor when it is damaged, and V8 refuses one not its own', async (t) => {
  const file = moduleFile(t);
  writeCache(file);
  const cache = readFileSync(codeCachePath(file));
  const headerEnd = 4 + cache.readUInt32LE(0);

  writeFileSync(codeCachePath(file), Buffer.concat([cache.subarray(0, headerEnd), Buffer.alloc(cache.length - headerEnd, 7)]));
  t.match(load(file), { cache: 'refused', answer: 3 }, 'V8 data that is not a cache');

  for (const damaged of [Buffer.alloc(2), Buffer.concat([cache.subarray(0, 4), Buffer.from('{not json')]), Buffer.from([255, 255, 255, 255])]) {
    writeFileSync(codeCachePath(file), damaged);
    t.match(load(file), { cache: 'stale', answer: 3 }, 'a damaged header');
  }

  // The same length (all V8 itself compares) and the same modification time, other bytes: the cache is stale,
  // and the file as it is now runs.
  writeFileSync(codeCachePath(file), cache);
  const then = new Date(Date.UTC(2026, 0, 1));
  utimesSync(file, then, then);
  const before = statSync(file);
  writeFileSync(file, SOURCE.replace('n * 2 + 1', 'n * 3 + 1'));
  utimesSync(file, then, then);
  t.same([statSync(file).size, statSync(file).mtimeMs], [before.size, before.mtimeMs], 'the same size and modification time');
  t.match(load(file), { cache: 'stale', answer: 4 });
});
