import { readFileSync } from 'node:fs';
import semver from 'semver';
import t from 'tap';
import { type LockedPackages, refusing } from '../helpers/engines.js';

// The README promises the oldest Node.js that package.json's `engines` allows. Every package the lock
// file installs must accept that version, or `npm install` warns EBADENGINE (or the package breaks).

const read = (name: string) => JSON.parse(readFileSync(new URL(`../../${name}`, import.meta.url), 'utf8'));
const manifest = read('package.json') as { engines: { node: string } };
const lock = read('package-lock.json') as { packages: LockedPackages };

t.test('every locked package accepts the oldest Node.js we promise', async (t) => {
  const oldest = semver.minVersion(manifest.engines.node)!.version;
  // Node.js 20 left maintenance in April 2026 and its dependencies' new releases (cookie 2, content-disposition 3)
  // refuse it: the oldest supported is a Node.js 22 LTS, tested in CI with Node.js 24 (scripts/test-node-versions.ts).
  t.match(oldest, /^22\./, 'Node.js 22 is the oldest supported');
  t.same(refusing(lock.packages, oldest), [], `no package refuses Node.js ${oldest}`);
  t.match(readFileSync(new URL('../../README.md', import.meta.url), 'utf8'), `Node.js ${oldest.replace(/\.0$/, '')} or later`, 'the README names it');
});

t.test('the check catches a package that wants a newer Node.js', async (t) => {
  t.same(refusing({ 'node_modules/cookie': { engines: { node: '>=22' } }, 'node_modules/ok': { engines: { node: '>=18' } } }, '20.19.0'), ['cookie (>=22)']);
});
