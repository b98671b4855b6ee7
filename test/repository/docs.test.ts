import { readFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import { domains } from '../../domains/index.js';
import { hazardKinds } from '../../hazards/kinds/index.js';
import { GENERIC_KINDS, PROFILES } from '../../lib/hazard-profiles.js';
import { OperationMap } from '../../server/proxy/operations.js';
import { proxyScenarios } from '../../server/proxy/scenarios.js';
import { smartHomeFixture } from '../domains/smart-home/helpers.js';
import { weatherFixture } from '../domains/weather/helpers.js';

// The counts and kind tables the documents state, read from the documents and compared with the code: a
// new tool, kind, domain or task that leaves them behind fails here, naming the document and its line.
// Where a number adds nothing, the documents say "every tool" instead, and there is nothing to keep true.

interface Doc {
  path: string;
  text: string;
}

const read = (path: string): Doc => ({ path, text: readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8') });
const readme = read('README.md');
const proxyDoc = read('docs/proxy.md');

/** `README.md:10`: where an offset of a document is, for a failure message. */
const at = (doc: Doc, index: number) => `${doc.path}:${doc.text.slice(0, index).split('\n').length}`;

/** The first match of a pattern, or a failure naming the document. */
function find(t: Test, doc: Doc, pattern: RegExp, what: string): { match: RegExpExecArray; where: string } | undefined {
  const match = pattern.exec(doc.text);
  if (!match) {
    t.fail(`${doc.path} no longer states ${what} (${pattern}): update this test with the sentence that does`);
    return undefined;
  }
  return { match, where: at(doc, match.index) };
}

/** The rows of the markdown table whose header line starts with `header`, each as its cells, with the line of each. */
function tableRows(doc: Doc, header: string): { cells: string[]; where: string }[] {
  const lines = doc.text.split('\n');
  const start = lines.findIndex((line) => line.startsWith(header));
  if (start < 0) throw new Error(`${doc.path}: no table starting with ${header}`);
  const rows: { cells: string[]; where: string }[] = [];
  for (let i = start + 2; i < lines.length && lines[i]!.startsWith('|'); i++)
    rows.push({
      cells: lines[i]!.split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((cell) => cell.trim()),
      where: `${doc.path}:${i + 1}`,
    });
  return rows;
}

/** The kinds a cell names: every `word` in backquotes. */
const kindsIn = (cell: string) => [...cell.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);

const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
const KINDS: readonly string[] = hazardKinds.map((kind) => kind.kind);
/** The kinds the proxy puts on an upstream with no rules: those of the example CRM's operations, read and write. */
const genericProxyKinds = new Set(
  proxyScenarios(new OperationMap(JSON.parse(read('examples/upstream-crm/openapi.json').text)).operations, [], true).map((scenario): string => scenario.kind),
);

t.test('README.md: the tools, domains, kinds and templates it counts', async (t) => {
  const distinct = new Set(domains.flatMap((domain) => domain.tools)).size;
  const total = find(t, readme, /\*\*(\d+) tools in (\w+) domains\*\*/, 'the number of tools and domains');
  if (total) {
    t.equal(Number(total.match[1]), distinct, `${total.where}: "${total.match[0]}" counts every tool of every domain, a shared utility once`);
    t.equal(total.match[2], WORDS[domains.length], `${total.where}: "${total.match[0]}" counts the domains of domains/index.ts`);
  }
  for (const domain of domains) {
    const count = find(t, readme, new RegExp(`\\*\\*${domain.name}\\*\\*:[^(]*(?:\\([^)]*\\)[^(]*)*?\\((\\d+) tools`), `${domain.name}'s tools`);
    if (count) t.equal(Number(count.match[1]), domain.tools.length, `${count.where}: ${domain.name} lists ${domain.tools.length} tools`);
  }
  const kinds = find(t, readme, /\*\*(\d+) kinds of hazards\*\*/, 'the number of hazard kinds');
  if (kinds) t.equal(Number(kinds.match[1]), KINDS.length, `${kinds.where}: the kinds of hazards/kinds/index.ts`);
  let tasks = 0;
  for (const domain of domains) tasks += ((await domain.tasks?.()) ?? []).length;
  const templates = find(t, readme, /(\d+) \*\*templates\*\*/, 'the number of task templates');
  if (templates) t.equal(Number(templates.match[1]), tasks, `${templates.where}: the tasks listed in domains/<domain>/tasks/index.ts`);
});

t.test('README.md: the counts of the smart-home and weather data', async (t) => {
  const home = smartHomeFixture();
  const homes = find(t, readme, /(\w+) homes \(/, 'the number of homes');
  if (homes) t.equal(homes.match[1]!.toLowerCase(), WORDS[Object.keys(home.homes).length], `${homes.where}: the homes of fixtures/smart-home.json`);
  const members = find(t, readme, /with (\d+) members, (\d+) devices/, 'the members and devices');
  if (members) {
    t.equal(Number(members.match[1]), Object.keys(home.users).length, `${members.where}: the users of fixtures/smart-home.json`);
    t.equal(Number(members.match[2]), Object.keys(home.devices).length, `${members.where}: the devices of fixtures/smart-home.json`);
  }
  const catalog = find(t, readme, /a media catalog \(([^)]*)\)/, 'the media catalog');
  if (catalog) {
    const types = new Map<string, number>();
    for (const item of Object.values(home.media)) types.set(item.type, (types.get(item.type) ?? 0) + 1);
    for (const [, count, word] of catalog.match[1]!.matchAll(/(\d+)\s+(\w+?)s\b/g))
      t.equal(Number(count), types.get(word!) ?? 0, `${catalog.where}: ${count} ${word}s, as fixtures/smart-home.json has them`);
  }
  const places = find(t, readme, /weather for (\d+) places/, 'the number of weather places');
  if (places) t.equal(Number(places.match[1]), Object.keys(weatherFixture().locations).length, `${places.where}: the locations of fixtures/weather.json`);
});

t.test('README.md: the kind table has every kind once, with its family', async (t) => {
  const rows = tableRows(readme, '| kind | family |');
  const listed = rows.flatMap((row) => kindsIn(row.cells[0]!).map((kind) => ({ kind, family: row.cells[1], where: row.where })));
  for (const kind of hazardKinds) {
    const found = listed.filter((row) => row.kind === kind.kind);
    t.equal(found.length, 1, `${kind.kind} has one row in README.md's kind table (${found.map((row) => row.where).join(', ') || 'none'})`);
    if (found[0]) t.equal(found[0].family, kind.family, `${found[0].where}: ${kind.kind} is of the ${kind.family} family`);
  }
  for (const row of listed) t.ok(KINDS.includes(row.kind), `${row.where}: ${row.kind} is a kind of hazards/kinds/index.ts`);
});

t.test('README.md: the profile table is lib/hazard-profiles.ts, and every other kind is said to be left out', async (t) => {
  const rows = tableRows(readme, '| profile | kinds |');
  const table = Object.fromEntries(rows.filter((row) => row.cells[0] !== '`all`').map((row) => [row.cells[0]!.replace(/`/g, ''), kindsIn(row.cells[1]!)]));
  t.same(table, PROFILES, `${rows[0]?.where ?? readme.path}: the profiles and their kinds, as lib/hazard-profiles.ts has them`);
  const leftOut = find(t, readme, /Left out: [^\n]*(?:\n[^\n]+)*/, 'the kinds no profile holds');
  if (leftOut) {
    const named = new Set(kindsIn(leftOut.match[0]));
    const outside = KINDS.filter((kind) => !GENERIC_KINDS.includes(kind));
    for (const kind of outside) t.ok(named.has(kind), `${leftOut.where}: "Left out" names ${kind}, which no profile holds, and says why`);
    for (const kind of named) t.notOk(GENERIC_KINDS.includes(kind), `${leftOut.where}: ${kind} is said to be left out but a profile holds it`);
  }
});

t.test('docs/proxy.md: the kind table has every kind once, and says which work on a proxied upstream', async (t) => {
  const rows = tableRows(proxyDoc, '| kind |');
  const ruleKinds = ['adhoc_rule', 'feature_limit', 'conflict'];
  for (const kind of KINDS) {
    const found = rows.filter((row) => kindsIn(row.cells[0]!).includes(kind));
    t.equal(found.length, 1, `${kind} has one row in docs/proxy.md's kind table (${found.map((row) => row.where).join(', ') || 'none'})`);
    const row = found[0];
    if (!row) continue;
    const offered = genericProxyKinds.has(kind) || ruleKinds.includes(kind);
    // Every upstream column: all but the kind and what the agent meets.
    const cells = row.cells.slice(1, -1);
    t.equal(
      cells.some((cell) => cell !== '—'),
      offered,
      `${row.where}: ${kind} ${offered ? 'works on a proxied upstream (server/proxy/)' : 'is not offered by the proxy: every column —'}`,
    );
  }
});
