import { existsSync, readdirSync } from 'node:fs';
import t from 'tap';
import { FAST_GROUPS, FULL_ONLY, NODE_VERSIONS_SUBSET, nodeVersionsFiles, repositoryRoot, testFiles, tierOf } from '../tiers.js';

// Every test file runs in exactly one place: a fast group (npm test) or on its own in the full tier. A file no
// tier claims would never run; an entry that claims nothing is stale.

const files = testFiles();

t.test('every test file belongs to a tier', async (t) => {
  t.ok(files.length > 100, `${files.length} test files found`);
  t.same(
    files.filter((file) => tierOf(file) === undefined),
    [],
    'files no fast group and no full-only entry claims (add their folder to FAST_GROUPS or FULL_ONLY in test/tiers.ts)',
  );
});

t.test('every tier entry claims a file', async (t) => {
  t.same(
    Object.keys(FULL_ONLY).filter((prefix) => !files.some((file) => file.startsWith(prefix))),
    [],
    'FULL_ONLY entries that match no test file',
  );
  for (const [group, { under }] of Object.entries(FAST_GROUPS)) {
    const claimed = files.filter((file) => {
      const tier = tierOf(file);
      return tier && 'group' in tier && tier.group === group;
    });
    t.ok(claimed.length > 0, `${group}: ${claimed.length} files`);
    t.same(
      under.filter((prefix) => !files.some((file) => file.startsWith(prefix))),
      [],
      `${group}: prefixes that match no test file`,
    );
  }
});

t.test('each fast group has its entry file, and each entry file its group', async (t) => {
  const entries = readdirSync(`${repositoryRoot}test/fast`).filter((file) => file.endsWith('.test.ts'));
  t.same(
    Object.keys(FAST_GROUPS).filter((group) => !existsSync(`${repositoryRoot}test/fast/${group}.test.ts`)),
    [],
    'groups without test/fast/<group>.test.ts',
  );
  t.same(
    entries.map((file) => file.slice(0, -'.test.ts'.length)).filter((name) => !Object.hasOwn(FAST_GROUPS, name)),
    [],
    'entry files without a group in test/tiers.ts',
  );
});

t.test('the subset run on other Node.js releases: every entry claims a file, and each says why', async (t) => {
  t.same(
    Object.keys(NODE_VERSIONS_SUBSET).filter((prefix) => !files.some((file) => file.startsWith(prefix))),
    [],
    'NODE_VERSIONS_SUBSET entries that match no test file',
  );
  t.same(
    Object.entries(NODE_VERSIONS_SUBSET).filter(([, why]) => why.trim().length < 10),
    [],
    'entries without a reason',
  );
  const subset = nodeVersionsFiles();
  for (const part of ['startup', 'bundle', 'mcp/', 'openenv/', 'persistence', 'cli/pack', 'own-keys'])
    t.ok(
      subset.some((file) => file.includes(part)),
      `it covers ${part}`,
    );
});
