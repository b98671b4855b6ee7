import { readFileSync } from 'node:fs';
import t from 'tap';
import { COMMON_ERRORS } from '../../domains/common/errors.js';
import { domains } from '../../domains/index.js';
import type { AnyTool } from '../../domains/tool.js';
import { HAZARD_ERRORS } from '../../hazards/errors.js';
import { type CatalogEntry, entriesOf, statusesOf } from '../../lib/error-catalog.js';
import { SERVER_ERRORS } from '../../server/core/error-codes.js';
import { undeclaredRefusal } from '../helpers/error-codes.js';
import { startServer } from '../helpers/server.js';
import { type Args, BASELINES } from '../helpers/valid-calls.js';

// The error catalogs and the tools' declarations hold true: every code a tool raises in its file is one it
// declares, every declared code is an entry of a catalog, every entry is raised somewhere, and every refusal
// the tools answer to valid calls and to calls broken one argument at a time is declared.

const root = new URL('../../', import.meta.url);
const source = (path: string) => readFileSync(new URL(path, root), 'utf8');

const catalogs: Record<string, Record<string, CatalogEntry>> = {
  ...Object.fromEntries(domains.map((domain) => [domain.name, domain.errors ?? {}])),
  common: COMMON_ERRORS,
};
const allEntries = new Set(Object.values(catalogs).flatMap(entriesOf));
/** Each tool once, with the folder its file is in (the shared utilities are listed by several domains). */
const tools = new Map<string, { folder: string; tool: AnyTool }>();
for (const domain of domains) {
  for (const tool of domain.tools) {
    const own = entriesOf(domain.errors ?? {}).length > 0 && tool.errors.every((entry) => domain.errors?.[entry.code] === entry);
    const folder = Object.values(COMMON_ERRORS).some((entry) => tool.errors.includes(entry)) || !own ? 'common' : domain.name;
    if (!tools.has(`${folder}/${tool.name}`)) tools.set(`${domain.name}/${tool.name}`, { folder, tool });
  }
}
const fileOf = (folder: string, tool: AnyTool) => {
  for (const candidate of [folder, 'common']) {
    try {
      return source(`domains/${candidate}/tools/${tool.name}.ts`);
    } catch {
      // not in this folder
    }
  }
  throw new Error(`no file for ${tool.name}`);
};

t.test('each catalog entry: its code, a status of an error, a one-line meaning', async (t) => {
  const groups = { ...catalogs, server: SERVER_ERRORS, hazards: HAZARD_ERRORS };
  let count = 0;
  for (const [group, catalog] of Object.entries(groups)) {
    t.ok(entriesOf(catalog).length > 0, `${group} has codes`);
    for (const [code, entry] of Object.entries(catalog)) {
      count += 1;
      t.equal(entry.code, code, `${group}/${code}: its own code`);
      t.match(code, /^[a-z][a-z0-9_]*$/, `${group}/${code}: snake_case`);
      t.ok(statusesOf(entry).length > 0 && statusesOf(entry).every((status) => status >= 400 && status < 600), `${group}/${code}: error statuses`);
      t.ok(entry.meaning.length > 20 && entry.meaning.length < 160 && !entry.meaning.includes('\n'), `${group}/${code}: a one-line meaning`);
    }
  }
  t.ok(count > 120, `${count} entries`);
});

t.test('every tool declares entries of a catalog, and every code raised in its file', async (t) => {
  for (const [key, { folder, tool }] of tools) {
    for (const entry of tool.errors) t.ok(allEntries.has(entry), `${key}: ${entry.code} is a catalog entry`);
    t.equal(new Set(tool.errors).size, tool.errors.length, `${key}: each code once`);
    const raised = [...fileOf(folder, tool).matchAll(/toolError\(\s*[A-Z_]+_ERRORS\.(\w+)/g)].map((match) => match[1]!);
    const declared = tool.errors.map((entry) => entry.code);
    for (const code of new Set(raised)) t.ok(declared.includes(code), `${key} raises ${code} in its file: declared`);
  }
});

t.test('every entry of a domain catalog is raised in its domain and declared by a tool', async (t) => {
  const declared = new Set<CatalogEntry>([...tools.values()].flatMap(({ tool }) => tool.errors));
  for (const [name, catalog] of Object.entries(catalogs)) {
    for (const entry of entriesOf(catalog)) t.ok(declared.has(entry), `${name}/${entry.code}: a tool declares it`);
  }
});

t.test('the domains raise only through their catalogs', async (t) => {
  const { execFileSync } = await import('node:child_process');
  const files = execFileSync('git', ['ls-files', 'domains/*.ts', 'domains/**/*.ts'], { cwd: root, encoding: 'utf8' }).trim().split('\n');
  t.ok(files.length > 100, `${files.length} files`);
  // commands.ts rebuilds the first device's refusal as the whole call's.
  const allowed = new Set(['domains/errors.ts', 'domains/smart-home/commands.ts']);
  for (const file of files) if (!allowed.has(file)) t.notMatch(source(file), /new ToolError\(/, `${file}: no ToolError built by hand`);
});

t.test('the server and the hazards answer the codes of their groups', async (t) => {
  const { execFileSync } = await import('node:child_process');
  const text = (folder: string) =>
    execFileSync('git', ['ls-files', `${folder}/*.ts`, `${folder}/**/*.ts`], { cwd: root, encoding: 'utf8' })
      .trim()
      .split('\n')
      .map(source)
      .join('\n');
  const server = text('server');
  for (const code of Object.keys(SERVER_ERRORS))
    t.ok(
      [`'${code}'`, `"${code}"`, `SERVER_ERRORS.${code}`].some((used) => server.includes(used)),
      `server/ answers ${code}`,
    );
  const hazards = text('hazards');
  for (const code of Object.keys(HAZARD_ERRORS)) t.ok(hazards.replace(/HAZARD_ERRORS = [\s\S]*?\n\}\);/, '').includes(code), `hazards/ answer ${code}`);
});

/** Arguments broken one at a time: each member emptied of meaning, out of range, of another type, or missing. */
function brokenCalls(args: Args): Args[] {
  const calls: Args[] = [{}];
  for (const [key, value] of Object.entries(args)) {
    const { [key]: _removed, ...without } = args;
    calls.push(without);
    const replacements =
      typeof value === 'string'
        ? ['zz-no-such-id', '', `${value}0`, '2099-01-01', '1999-01-01']
        : typeof value === 'number'
          ? [-1, 0, 1_000_000, 0.5]
          : Array.isArray(value)
            ? [[], [...value, ...value], value.map((item) => (typeof item === 'string' ? 'zz-no-such-id' : item))]
            : typeof value === 'boolean'
              ? [!value]
              : [null];
    for (const replacement of replacements) calls.push({ ...args, [key]: replacement });
  }
  return calls;
}

t.test('the tools answer only the codes they declare: valid calls, and calls broken one argument at a time', async (t) => {
  const server = await startServer(t, { sessions: { maxSessions: 2000 } });
  const seen = new Map<string, Set<string>>();
  let calls = 0;
  for (const domain of domains) {
    const baselines = BASELINES[domain.name]!();
    for (const tool of domain.tools) {
      const cases = baselines[tool.name] ?? [];
      t.ok(cases.length > 0, `${domain.name}/${tool.name} has valid calls`);
      for (const { args, session: options } of cases) {
        for (const call of [args, ...brokenCalls(args)]) {
          const session = await server.newSession(options ?? {});
          const reply = await server.call(domain.name, tool.name, call, session);
          calls += 1;
          const codes = reply.status >= 400 ? [reply.body?.code] : ((reply.body?.results ?? []) as { code?: string }[]).map((r) => r.code);
          for (const code of codes.filter((c) => c !== undefined)) {
            const why = undeclaredRefusal(tool, reply.status >= 400 ? reply.status : statusOf(tool, code), code, { hazards: false });
            if (why) t.fail(`${why}; arguments ${JSON.stringify(call)}`);
            else seen.set(`${domain.name}/${tool.name}`, (seen.get(`${domain.name}/${tool.name}`) ?? new Set()).add(code));
          }
        }
      }
    }
  }
  const met = new Set([...seen.values()].flatMap((codes) => [...codes]));
  t.ok(met.size > 30, `${calls} calls met ${met.size} distinct codes`);
});

/** A per-endpoint refusal inside a 200 (a device command): the status its code would answer alone. */
function statusOf(tool: AnyTool, code: string): number {
  const entry = tool.errors.find((e) => e.code === code);
  return entry ? statusesOf(entry)[0]! : 400;
}
