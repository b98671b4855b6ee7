import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { delimiter, resolve } from 'node:path';
import { NODE_VERSIONS_SUBSET, nodeVersionsFiles, repositoryRoot } from '../test/tiers.js';

// `tsx scripts/test-node-versions.ts 22 [24 …]`: for each Node.js release named (a major or a version), fetched
// from the npm registry's binary packages, compile dist/ with it (the bundle's code cache is V8's own, per release)
// and run the named subset of the suite (NODE_VERSIONS_SUBSET in test/tiers.ts) with it first on PATH, so that tap,
// the tests and every process they start run on it. dist/ is left as that release's build: `npm run compile` after.

const ranges = process.argv.slice(2);
if (ranges.length === 0 || ranges.some((range) => !/^\d[\w.-]*$/.test(range))) {
  process.stderr.write('Usage: tsx scripts/test-node-versions.ts <major or version>..., e.g. 22 24\n');
  process.exit(2);
}

const files = nodeVersionsFiles();
process.stdout.write(
  `The subset (${files.length} files):\n${Object.entries(NODE_VERSIONS_SUBSET)
    .map(([prefix, why]) => `  ${prefix}: ${why}`)
    .join('\n')}\n`,
);

const results: string[] = [];
let failed = false;
for (const range of ranges) {
  const started = performance.now();
  const binary = spawnSync(process.execPath, [`${repositoryRoot}scripts/node-binary.mjs`, range], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (binary.status !== 0) throw new Error(`no Node.js ${range} from the npm registry (scripts/node-binary.mjs)`);
  const bin = binary.stdout.trim();
  const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` };
  const run = (command: string, args: string[]) => spawnSync(command, args, { cwd: repositoryRoot, env, stdio: 'inherit' }).status === 0;
  const version = spawnSync('node', ['--version'], { env, encoding: 'utf8' }).stdout.trim();
  process.stdout.write(`\n# Node.js ${version}: npm run compile, then the subset\n`);
  const ok = run('npm', ['run', 'compile']) && run(`${repositoryRoot}node_modules/.bin/tap`, ['--disable-coverage', ...files]);
  failed ||= !ok;
  // The temporary folder the release was installed into (<prefix>/node_modules/<package>/bin).
  rmSync(resolve(bin, '../../..'), { recursive: true, force: true });
  results.push(`Node.js ${version}: ${ok ? 'passed' : 'FAILED'} in ${Math.round((performance.now() - started) / 1000)} s`);
}
process.stdout.write(`\n${results.join('\n')}\n`);
process.exit(failed ? 1 : 0);
