import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { weather } from '../../domains/weather/index.js';
import { FixtureError, loadBaseDatabase } from '../../server/core/data/base.js';
import { type PreparedDatabase, prepare, preparedData, preparedPath } from '../../server/core/data/prepared.js';

// A database's prepared copy (validated and completed by the build) stands for its file only while the file
// is the one it was made from; otherwise the file is read, validated and completed as always.

const source = fileURLToPath(weather.fixtureFile);

function setUp(t: { teardown(fn: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'wildtools-prepared-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'weather.json');
  copyFileSync(source, path);
  const prepared = prepare(weather, readFileSync(path, 'utf8'), statSync(path));
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

const nameOf = async (path: string, table: string, id: string) => ((await loadBaseDatabase(weather, path)).tables.get(table)!.get(id) as { name: string }).name;

t.test('a fresh prepared copy is used; once the file changes, the file is', async (t) => {
  const { path, prepared } = setUp(t);
  const { copy, table, id } = marked(prepared);
  writeFileSync(preparedPath(path), JSON.stringify(copy));
  t.equal(await nameOf(path, table, id), 'from the prepared copy', 'the prepared copy stands for the file');
  const later = new Date(statSync(path).mtimeMs + 5_000);
  utimesSync(path, later, later);
  t.not(await nameOf(path, table, id), 'from the prepared copy', 'a file touched since is read again');
});

t.test('a prepared copy of another domain, or one that is not JSON, is ignored', async (t) => {
  const { path, prepared } = setUp(t);
  const { copy, table, id } = marked(prepared);
  writeFileSync(preparedPath(path), JSON.stringify({ ...copy, domain: 'retail' }));
  t.not(await nameOf(path, table, id), 'from the prepared copy');
  writeFileSync(preparedPath(path), '{not json');
  t.not(await nameOf(path, table, id), 'from the prepared copy');
  t.equal(preparedData(weather, statSync(path), null), undefined);
  t.equal(preparedData(weather, statSync(path), { ...prepared, data: null }), undefined);
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
