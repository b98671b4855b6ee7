import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { domains } from '../../domains/index.js';
import { hazardKinds } from '../../hazards/kinds/index.js';
import { SKILLS } from '../../lib/skills.js';

// What the layout promises: a new tool is a file in its domain's tools/, a new hazard kind a file in
// hazards/kinds/, a new task a file in its domain's tasks/, a new domain a folder. A file that exists but is
// not registered fails here.

const root = new URL('../../', import.meta.url);
const dir = (path: string) => new URL(path, root);
const tsFiles = (path: string) => readdirSync(dir(path)).filter((name) => name.endsWith('.ts') && name !== 'index.ts');
const load = async (path: string) => (await import(pathToFileURL(join(dir(path).pathname)).href)) as Record<string, unknown>;

const isTool = (value: unknown): value is { name: string; run: unknown } => typeof value === 'object' && value !== null && 'run' in value && 'input' in value;

t.test('every domain folder is registered', async (t) => {
  const folders = readdirSync(dir('domains/'), { withFileTypes: true }).filter((entry) => entry.isDirectory() && entry.name !== 'common');
  t.same(
    folders.map((entry) => entry.name).sort(),
    domains.map((domain) => domain.name).sort(),
    'the folders of domains/ (but common/) are the domains listed in domains/index.ts',
  );
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
      const test = `test/domains/${folder}/tools/${tool.name}.test.ts`;
      t.ok(existsSync(dir(test)) || existsSync(dir(`test/domains/${folder}/${tool.name}.test.ts`)), `${folder}/tools/${file}: its test, ${test}`);
    }
  }
});

t.test('every file in hazards/kinds/ is a registered kind', async (t) => {
  const registered = new Set<string>(hazardKinds.map((kind) => kind.kind));
  const files = tsFiles('hazards/kinds/');
  t.equal(files.length, registered.size, 'one kind per file');
  for (const file of files) t.ok(registered.has(file.replace(/\.ts$/, '')), `${file} is listed in hazards/kinds/index.ts`);
});

t.test("every task file of a domain is one of the domain's tasks, named after its id; every kind declares the skills it needs", async (t) => {
  for (const domain of domains) {
    const files = readdirSync(dir(`domains/${domain.name}/tasks/`)).filter((name) => /^\d{3}\.ts$/.test(name));
    const templates = (await domain.tasks?.()) ?? [];
    t.equal(files.length, templates.length, `${domain.name}: every NNN.ts is listed in tasks/index.ts (${files.length})`);
    for (const file of files) {
      const { default: template } = await load(`domains/${domain.name}/tasks/${file}`);
      t.equal((template as { id: string }).id, `${domain.name}/${file.replace(/\.ts$/, '')}`, `${domain.name}/tasks/${file}: its id is its file's name`);
      t.ok(templates.includes(template as never), `${domain.name}/tasks/${file} is listed`);
    }
  }
  const skills = new Set(Object.keys(SKILLS));
  for (const kind of hazardKinds) {
    t.ok(kind.needs.length > 0 && kind.needs.every((skill) => skills.has(skill)), `${kind.kind} needs ${kind.needs.join(' or ')}`);
  }
});

// A kind listed in kinds/index.ts compiles and is served, yet does nothing until a domain declares a scenario
// of it; the checklist of docs/extending.md ("A hazard kind") then asks for its mechanics test.
t.test('every listed kind has a scenario in some domain and a mechanics test', async (t) => {
  for (const { kind } of hazardKinds) {
    const where = domains.filter((domain) => (domain.hazards ?? []).some((scenario) => scenario.kind === kind)).map((domain) => domain.name);
    if (where.length === 0)
      t.fail(`${kind} is listed in hazards/kinds/index.ts but no domain declares a scenario of it (domains/<domain>/hazards/index.ts): it is inert`);
    else t.pass(`${kind}: scenarios in ${where.join(', ')}`);
    t.ok(existsSync(dir(`test/hazards/${kind}.test.ts`)), `${kind}: its mechanics test, test/hazards/${kind}.test.ts`);
  }
});

// The suites that run per domain are one file each: a new domain's are written, not inherited.
t.test('every domain has its scenario, validity, adversary and composition suites', async (t) => {
  for (const domain of domains)
    for (const suite of ['scenarios', 'agents/validity', 'agents/adversaries', 'agents/compositions'])
      t.ok(existsSync(dir(`test/${suite}/${domain.name}.test.ts`)), `${domain.name}: test/${suite}/${domain.name}.test.ts`);
  for (const domain of domains) t.ok(existsSync(dir(`agents/plans/${domain.name}.ts`)), `${domain.name}: its plans, agents/plans/${domain.name}.ts`);
});
