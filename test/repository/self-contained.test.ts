import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

// A user's clone has nothing beside it: no code and no test may read a path outside the repository.

const root = fileURLToPath(new URL('../../', import.meta.url));
const FOLDERS = ['test', 'server', 'scoring', 'agents', 'domains', 'hazards', 'lib', 'fixtures', 'openapi', 'bench', 'scripts', 'examples', 'client', 'cli'];
/** System locations a test may name: devices and programs the machine provides, never project data. */
const SYSTEM = [/^\/dev\//, /^\/usr\/bin\//, /^\/proc\//];

function* sourceFiles(folder: string): Generator<string> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|mts|mjs|js)$/.test(entry.name)) yield path;
  }
}

/** The static text of every string literal (a template literal up to its first substitution). */
function literals(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\$]|\\.|\$(?!\{))*)/g)) {
    found.push(match[1] ?? match[2] ?? match[3] ?? '');
  }
  return found;
}

const self = fileURLToPath(import.meta.url);

const inside = (path: string) => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel));
};

/** Paths a file names that lie outside the repository. */
export function outsidePaths(file: string, source: string): string[] {
  const outside: string[] = [];
  for (const text of literals(source)) {
    if (text.startsWith('./') || text.startsWith('../')) {
      if (!inside(resolve(dirname(file), text))) outside.push(text);
    } else if (/^\/[A-Za-z]/.test(text) && !SYSTEM.some((pattern) => pattern.test(text))) {
      // An absolute path is suspect when its first segment exists on this machine (a URL path such as
      // /retail/tools does not), unless it is the repository itself.
      const first = `/${text.split('/')[1]}`;
      if (existsSync(first) && !inside(text)) outside.push(text);
    }
  }
  return outside;
}

t.test('no source or test file names a path outside the repository', async (t) => {
  let files = 0;
  for (const folder of FOLDERS) {
    if (!existsSync(join(root, folder))) continue;
    for (const file of sourceFiles(join(root, folder))) {
      if (file === self) continue; // its examples below name outside paths on purpose
      files += 1;
      const outside = outsidePaths(file, readFileSync(file, 'utf8'));
      t.same(outside, [], `${relative(root, file)} reads only the repository`);
    }
  }
  t.ok(files > 100, `${files} files checked`);
});

t.test('the check catches what it is for', async (t) => {
  const here = join(root, 'test', 'domains', 'weather', 'domain.test.ts');
  t.same(
    outsidePaths(here, "readFileSync(new URL('../../../../elsewhere/notes.md', import.meta.url))"),
    ['../../../../elsewhere/notes.md'],
    'a relative path climbing out',
  );
  t.same(outsidePaths(here, "readFileSync(new URL('../../../domains/weather/policy.md', import.meta.url))"), [], 'a relative path inside');
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal, as the check reads it
  t.same(outsidePaths(here, 'readFileSync(`/etc/${name}`)'), ['/etc/'], 'an absolute path outside');
  t.same(outsidePaths(here, "request('GET', '/retail/tools')"), [], 'a URL path is not a file');
  t.same(outsidePaths(here, "spawn('/usr/bin/chromium')"), [], 'a system program');
});
