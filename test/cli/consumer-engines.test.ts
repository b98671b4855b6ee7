import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import t from 'tap';
import { type LockedPackages, refusing } from '../helpers/engines.js';

// What a consumer installs is not our lock file: npm resolves the tarball's dependency ranges afresh, and our
// `overrides` do not apply. Resolved here from the npm registry (a lock file only, nothing installed), every package
// a consumer would get must accept the oldest Node.js that `engines` promises, or their install warns EBADENGINE.

const root = fileURLToPath(new URL('../../', import.meta.url));
const env = { ...process.env, NODE_OPTIONS: '' };
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string }; overrides?: unknown };

t.test("a consumer's fresh install of the packed tarball: no package refuses the oldest supported Node.js", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'wildtools-consumer-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const [packed] = JSON.parse(
    execFileSync(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: root,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  ) as [{ filename: string }];
  const app = join(dir, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), '{"name": "app", "version": "1.0.0", "private": true}\n');
  execFileSync(npm, ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund', join(dir, packed.filename)], {
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
