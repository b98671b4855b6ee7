import { basename } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import t from 'tap';
import { FAST_GROUPS, groupFiles, repositoryRoot } from '../tiers.js';

/**
 * Runs a fast group in this process: its time limit, then every file of the group imported. Their subtests queue
 * on the one root test and run one after another, as they would in processes of their own.
 *
 * The files load all at once rather than in turn: the root test ends by itself once it has been idle for two
 * timer ticks (after a root-level teardown, which every test server registers), so a file whose top level awaits
 * something before its first subtest (a server start) must not begin only when the files before it have finished.
 */
export async function runGroup(entry: string): Promise<void> {
  const name = basename(fileURLToPath(entry), '.test.ts');
  const group = FAST_GROUPS[name];
  if (!group) throw new Error(`test/fast/${name}.test.ts has no group of that name in test/tiers.ts`);
  t.setTimeout(group.limitSeconds * 1000);
  await Promise.all(groupFiles(name).map((file) => import(pathToFileURL(`${repositoryRoot}${file}`).href)));
}
