import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The project packed as npm would publish it, for the tests that install or unpack the tarball. Packing skips the
// scripts, so that these tests do not compile again: they pack dist/ as built.

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export interface Packed {
  /** The tarball's path. */
  tarball: string;
  /** The files it holds, as npm lists them. */
  files: string[];
}

/** Packs the repository into `dir`. */
export function packInto(dir: string, env: NodeJS.ProcessEnv): Packed {
  const [packed] = JSON.parse(
    execFileSync(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  ) as [{ filename: string; files: { path: string }[] }];
  return { tarball: join(dir, packed.filename), files: packed.files.map((file) => file.path) };
}

/** An empty private app in `dir/app`, for a tarball to be installed into; returns its folder. */
export function emptyApp(dir: string): string {
  const app = join(dir, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), '{"name": "app", "version": "1.0.0", "private": true}\n');
  return app;
}
