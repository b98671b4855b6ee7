import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { domains } from '../../domains/index.js';
import { hazardKinds } from '../../hazards/kinds/index.js';

// What the layout promises: a new tool is a file in its domain's tools/, a new hazard kind a file in
// hazards/kinds/, a new domain a folder. A file that exists but is not registered fails here.

const root = new URL('../../', import.meta.url);
const dir = (path: string) => new URL(path, root);
const tsFiles = (path: string) => readdirSync(dir(path)).filter((name) => name.endsWith('.ts') && name !== 'index.ts');
const load = async (path: string) => (await import(pathToFileURL(join(dir(path).pathname)).href)) as Record<string, unknown>;

const isTool = (value: unknown): value is { name: string; run: unknown } => typeof value === 'object' && value !== null && 'run' in value && 'input' in value;

t.test('every domain folder is registered', async (t) => {
  const folders = readdirSync(dir('domains/'), { withFileTypes: true }).filter((entry) => entry.isDirectory() && entry.name !== 'common');
  t.same(folders.map((entry) => entry.name).sort(), domains.map((domain) => domain.name).sort());
});

t.test("every tool file of a domain is one of the domain's tools", async (t) => {
  const folders = readdirSync(dir('domains/'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  t.ok(folders.length >= 5, 'the domains and common/ are read from the folder');
  for (const folder of folders) {
    for (const file of tsFiles(`domains/${folder}/tools/`)) {
      const exports = await load(`domains/${folder}/tools/${file}`);
      const tools = Object.values(exports)
        .flatMap((value) => (Array.isArray(value) ? value : [value]))
        .filter(isTool);
      if (!isTool(exports['default'])) {
        t.ok(tools.length > 0, `${folder}/tools/${file} declares a tool, or lists tools`);
        continue;
      }
      const tool = exports['default'];
      const servedBy = domains.filter((domain) => domain.tools.some((served) => served.name === tool.name));
      t.ok(servedBy.length > 0, `${folder}/tools/${file} (${tool.name}) is served by a domain`);
      t.equal(file, `${tool.name}.ts`, 'its file is named after it');
    }
  }
});

t.test('every file in hazards/kinds/ is a registered kind', async (t) => {
  const registered = new Set<string>(hazardKinds.map((kind) => kind.kind));
  const files = tsFiles('hazards/kinds/');
  t.equal(files.length, registered.size, 'one kind per file');
  for (const file of files) t.ok(registered.has(file.replace(/\.ts$/, '')), `${file} is listed in hazards/kinds/index.ts`);
});
