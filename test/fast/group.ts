import { basename } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import t from 'tap';
import { FAST_GROUPS, groupFiles, repositoryRoot } from '../tiers.js';

/**
 * Runs a fast group in this process: its time limit, then each of its files imported in turn. Their subtests
 * queue on the one root test and run one after another, as they would in processes of their own.
 */
export async function runGroup(entry: string): Promise<void> {
  const name = basename(fileURLToPath(entry), '.test.ts');
  const group = FAST_GROUPS[name];
  if (!group) throw new Error(`test/fast/${name}.test.ts has no group of that name in test/tiers.ts`);
  t.setTimeout(group.limitSeconds * 1000);
  for (const file of groupFiles(name)) await import(pathToFileURL(`${repositoryRoot}${file}`).href);
}
