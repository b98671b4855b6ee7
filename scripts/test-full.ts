import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fullOnlyFiles, repositoryRoot } from '../test/tiers.js';

// The full tier (npm run test:full): the fast tier's groups and every full-only file, in one tap run, so that
// the coverage thresholds of .taprc are checked over the whole suite. Extra arguments go to tap.

const fast = readdirSync(`${repositoryRoot}test/fast`)
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => `test/fast/${file}`);
const tap = `${repositoryRoot}node_modules/.bin/tap`;
const run = spawnSync(tap, [...process.argv.slice(2), ...fast.sort(), ...fullOnlyFiles()], { cwd: repositoryRoot, stdio: 'inherit' });
process.exit(run.status ?? 1);
