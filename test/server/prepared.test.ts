import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { weather } from '../../domains/weather/index.js';
import { FixtureError, loadBaseDatabase } from '../../server/core/data/base.js';
import { type PreparedDatabase, prepare, preparedData, preparedPath } from '../../server/core/data/prepared.js';

// A database's prepared copy (validated and completed by the build) stands for its file only while the file
// holds the bytes it was made from, whatever its modification time (npm pack and npm install rewrite them all);
// otherwise the file is read, validated and completed as always.

const source = fileURLToPath(weather.fixtureFile);

function setUp(t: { teardown(fn: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'wildtools-prepared-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'weather.json');
  copyFileSync(source, path);
  const prepared = prepare(weather, readFileSync(path));
  return { path, prepared };
}

/** A prepared copy whose data tells it apart from the file: one station renamed. */
function marked(prepared: PreparedDatabase): { copy: PreparedDatabase; table: string; id: string } {
  const copy = structuredClone(prepared) as PreparedDatabase & { data: Record<string, Record<string, Record<string, unknown>>> };
  const [table, records] = Object.entries(copy.data).find(([, records]) => Object.values(records).some((record) => typeof record['name'] === 'string'))!;
  const id = Object.keys(records)[0]!;
  records[id]!['name'] = 'from the prepared copy';
  return { copy, table, id };
}

const load = async (path: string, table: string, id: string) => {
  const base = await loadBaseDatabase(weather, path);
  return { name: (base.tables.get(table)!.get(id) as { name: string }).name, prepared: base.prepared === true };
};

t.test('a prepared copy is used while the file holds its bytes, whatever its mtime; once edited, the file is', async (t) => {
  const { path, prepared } = setUp(t);
  const { copy, table, id } = marked(prepared);
  writeFileSync(preparedPath(path), JSON.stringify(copy));
  t.same(await load(path, table, id), { name: 'from the prepared copy', prepared: true }, 'the prepared copy stands for the file');
  const packed = new Date(Date.UTC(1985, 9, 26, 8, 15));
  utimesSync(path, packed, packed);
  const before = statSync(path);
  t.same(await load(path, table, id), { name: 'from the prepared copy', prepared: true }, 'a file touched since (as npm pack does) still has its copy');

  // One character of a name changed: the same size, and the modification time put back as it was.
  const text = readFileSync(path, 'utf8');
  const name = /"name": ?"([A-Za-z])/.exec(text)!;
  const at = name.index + name[0].length - 1;
  const edited = `${text.slice(0, at)}${name[1] === 'Q' ? 'R' : 'Q'}${text.slice(at + 1)}`;
  writeFileSync(path, edited);
  utimesSync(path, packed, packed);
  t.same([statSync(path).size, statSync(path).mtimeMs], [before.size, before.mtimeMs], 'the same size and modification time');
  const inFile = (JSON.parse(edited) as Record<string, Record<string, { name: string }>>)[table]![id]!.name;
  t.same(await load(path, table, id), { name: inFile, prepared: false }, 'a file edited since is read again');
});

t.test('a prepared copy of another domain, or one that is not JSON, is ignored', async (t) => {
  const { path, prepared } = setUp(t);
  const { copy, table, id } = marked(prepared);
  writeFileSync(preparedPath(path), JSON.stringify({ ...copy, domain: 'retail' }));
  t.same(await load(path, table, id), { name: (prepared.data as Record<string, Record<string, { name: string }>>)[table]![id]!.name, prepared: false });
  writeFileSync(preparedPath(path), '{not json');
  t.equal((await load(path, table, id)).prepared, false);
  t.equal(preparedData(weather, readFileSync(path), null), undefined);
  t.equal(preparedData(weather, readFileSync(path), { ...prepared, data: null }), undefined);
  t.equal(
    preparedData(weather, readFileSync(path), { ...prepared, source: { bytes: prepared.source.bytes, mtimeMs: 0 } }),
    undefined,
    'a stamp of the old kind',
  );
  t.ok(preparedData(weather, readFileSync(path), prepared));
});

t.test('a file that is missing, empty or not JSON is still a startup error naming it', async (t) => {
  const { path } = setUp(t);
  await t.rejects(loadBaseDatabase(weather, `${path}.missing`), new FixtureError(`${path}.missing: file not found or empty`));
  writeFileSync(path, '');
  await t.rejects(loadBaseDatabase(weather, path), /file not found or empty/);
  writeFileSync(path, '{"stations": ');
  await t.rejects(loadBaseDatabase(weather, path), /cannot read the weather database/);
  t.equal(preparedPath('/a/b.json'), '/a/b.prepared.json');
  t.equal(preparedPath('/a/b'), '/a/b.prepared.json');
});
