// Copies what the compiled server reads at run time next to the compiled code in dist/:
// package.json (version), each domain's policy.md, and the default fixtures.
import { cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

const policies = readdirSync('domains', { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join('domains', entry.name, 'policy.md')))
  .map((entry) => join('domains', entry.name, 'policy.md'));
const fixtures = readdirSync('fixtures')
  .filter((name) => name.endsWith('.json'))
  .map((name) => join('fixtures', name));
const files = ['package.json', ...policies, ...fixtures];
for (const file of files) {
  mkdirSync(join('dist', dirname(file)), { recursive: true });
  cpSync(file, join('dist', file));
}
console.log(`copied ${files.length} assets into dist/`);
