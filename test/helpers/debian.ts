import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

// Tests that drive a real program from Debian's packages (Chromium, nginx) install it when it is missing and
// this process may install it (root, with apt-get), as CI on a fresh machine needs.

/** What ensurePackage looks at and runs; tests replace parts of it. */
export interface DebianHost {
  exists(path: string): boolean;
  isRoot: boolean;
  hasAptGet: boolean;
  /** Runs a command to its end; true when it exited with 0. */
  run(command: string, args: readonly string[]): boolean;
}

export const debianHost = (): DebianHost => ({
  exists: existsSync,
  isRoot: process.getuid?.() === 0,
  hasAptGet: existsSync('/usr/bin/apt-get'),
  // Their output goes to stderr, out of the way of the test's own output.
  run: (command, args) => spawnSync(command, args, { stdio: ['ignore', 2, 2], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0,
});

/**
 * `path`, installed first from Debian's package `name` when it is missing and this process is root on a
 * system with apt-get (an install that fails is retried once after `apt-get update`); `missing` explains
 * what to do when it cannot be.
 */
export function ensurePackage(path: string, name: string, missing: string, system: DebianHost = debianHost()): string {
  if (system.exists(path)) return path;
  const install = ['install', '-y', '--no-install-recommends', name];
  if (system.isRoot && system.hasAptGet) process.stderr.write(`${path} is missing: installing Debian's ${name} with apt-get ${install.join(' ')}\n`);
  if (system.isRoot && system.hasAptGet && !system.run('apt-get', install)) {
    system.run('apt-get', ['update']);
    system.run('apt-get', install);
  }
  if (!system.exists(path)) throw new Error(missing);
  return path;
}
