import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

// Folder READMEs stay true: each top-level folder has one stating its rule (a line starting "Rule:"), the files
// a README names exist, and a README that lists its folder's files lists every one of them.

const root = fileURLToPath(new URL('../../', import.meta.url));
const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).trim().split('\n');
const existing = tracked.filter((path) => existsSync(join(root, path)));
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** Top-level folders of sources, documents aside. */
const folders = [...new Set(existing.filter((path) => path.includes('/') && !path.startsWith('.')).map((path) => path.split('/')[0]!))].filter(
  (folder) => folder !== 'docs',
);
const readmes = existing.filter((path) => path.endsWith('/README.md'));

/** Names a README may give that are not files of the repository: what a run writes, or files elsewhere. */
const ELSEWHERE = new Set([
  'tasks.json', // a tau2-bench checkout's
  'src/tau2/data_model/tasks.py', // tau2-bench's source
  'tau2.json', // written by npm run tau2
  'tau2.md',
  '.cursor/mcp.json', // an MCP client's configuration, in the user's project
  '.vscode/mcp.json',
]);

/** The file names a README gives in backquotes or links: a path with an extension, or a folder ending in /. */
function namedFiles(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(/`([^`\s]+)`|\]\(([^)\s#]+)\)/g)) {
    const name = match[1] ?? match[2]!;
    if (/^https?:/.test(name) || !/^[\w.\-/]+$/.test(name)) continue;
    if (!/\.(ts|mjs|js|json|md|ya?ml|conf|html|py)$|\/$/.test(name)) continue;
    if (/^(dist|reports)\//.test(name) || ELSEWHERE.has(name)) continue;
    names.push(name);
  }
  return names;
}

t.test('every top-level folder has a README that states its rule', async (t) => {
  for (const folder of folders) {
    const path = `${folder}/README.md`;
    if (!existsSync(join(root, path))) {
      t.fail(`${folder}/ has no README.md`);
      continue;
    }
    t.match(read(path), /^Rule: /m, `${path} has a line starting "Rule:"`);
  }
});

t.test("README.md's Layout table names every top-level folder", async (t) => {
  const layout = read('README.md').split('## Layout')[1] ?? '';
  for (const folder of folders) t.match(layout, `| \`${folder}/\` |`, `README.md, Layout: a row for ${folder}/`);
});

t.test('every file a folder README names exists', async (t) => {
  for (const readme of readmes) {
    const dir = dirname(readme);
    const under = existing.filter((path) => path.startsWith(`${dir}/`));
    for (const name of namedFiles(read(readme))) {
      const bare = name.replace(/\/$/, '');
      // A name is read in the README's folder, from the root, or (in a list under a subfolder) as a file below the folder.
      const found =
        existsSync(join(root, dir, name)) || existsSync(join(root, name)) || under.some((path) => path.endsWith(`/${bare}`) || path.includes(`/${bare}/`));
      t.ok(found, `${readme} names ${name}: ${found ? 'it exists' : 'no such file (renamed or removed? update the README)'}`);
    }
  }
});

/** READMEs that list their folder's files: each file or subfolder in the folder must be named there. */
const LISTING = ['agents', 'agents/tau2', 'bench', 'cli', 'client', 'deploy', 'scoring', 'scripts'];

t.test('a README that lists its folder lists every file in it', async (t) => {
  for (const folder of LISTING) {
    const text = read(`${folder}/README.md`);
    const children = [...new Set(existing.filter((path) => path.startsWith(`${folder}/`)).map((path) => path.slice(folder.length + 1).split('/')[0]!))];
    for (const child of children) {
      if (child === 'README.md') continue;
      const isFolder = existing.some((path) => path.startsWith(`${folder}/${child}/`));
      const name = isFolder ? `${child}/` : child;
      t.ok(text.includes(`\`${name}`), `${folder}/README.md names ${name}`);
    }
  }
  const testReadme = read('test/README.md');
  const testFolders = [...new Set(existing.filter((path) => /^test\/[^/]+\//.test(path)).map((path) => path.split('/')[1]!))];
  for (const folder of testFolders)
    t.ok(
      folders.includes(folder) || testReadme.includes(`\`${folder}/\``),
      `test/${folder}/ tests a source folder of that name, or test/README.md says what it holds`,
    );
});
