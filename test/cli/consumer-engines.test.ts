import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import semver from 'semver';
import t from 'tap';
import { emptyApp, NPM as npm, packInto, ROOT as root } from '../helpers/pack.js';
import { type LockedPackages, refusing } from '../helpers/engines.js';

// What a consumer installs is not our lock file: npm resolves the tarball's dependency ranges afresh, and our
// `overrides` do not apply. Resolved here from the npm registry (a lock file only, nothing installed), every package
// a consumer would get must accept the oldest Node.js that `engines` promises, or their install warns EBADENGINE.

const env = { ...process.env, NODE_OPTIONS: '' };
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string }; overrides?: unknown };

t.test("a consumer's fresh install of the packed tarball: no package refuses the oldest supported Node.js", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'wildtools-consumer-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const { tarball } = packInto(dir, env);
  const app = emptyApp(dir);
  execFileSync(npm, ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund', tarball], {
    cwd: app,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8')) as { packages: LockedPackages };
  const oldest = semver.minVersion(manifest.engines.node)!.version;
  t.ok(Object.keys(lock.packages).length > 100, `${Object.keys(lock.packages).length} packages resolved`);
  t.same(refusing(lock.packages, oldest), [], `no package a consumer gets refuses Node.js ${oldest}`);
  t.equal(manifest.overrides, undefined, 'no overrides: what the repository tests is what consumers get');
});
