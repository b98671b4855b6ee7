import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

// The browser tests drive the system's Chromium (Debian's package): installed here when it is missing
// and this process may install it.

export const CHROMIUM = '/usr/bin/chromium';

/** What ensureChromium looks at and runs; tests replace parts of it. */
export interface ChromiumHost {
  path: string;
  exists(path: string): boolean;
  isRoot: boolean;
  hasAptGet: boolean;
  /** Runs a command to its end; true when it exited with 0. */
  run(command: string, args: readonly string[]): boolean;
}

const host = (): ChromiumHost => ({
  path: CHROMIUM,
  exists: existsSync,
  isRoot: process.getuid?.() === 0,
  hasAptGet: existsSync('/usr/bin/apt-get'),
  // Their output goes to stderr, out of the way of the test's own output.
  run: (command, args) => spawnSync(command, args, { stdio: ['ignore', 2, 2], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0,
});

const INSTALL = ['install', '-y', '--no-install-recommends', 'chromium'];

/**
 * The path of Chromium, installed with apt-get first when it is missing and this process is root on a
 * system with apt-get (an install that fails is retried once after `apt-get update`).
 */
export function ensureChromium(overrides: Partial<ChromiumHost> = {}): string {
  const system = { ...host(), ...overrides };
  if (system.exists(system.path)) return system.path;
  if (system.isRoot && system.hasAptGet && !system.run('apt-get', INSTALL)) {
    system.run('apt-get', ['update']);
    system.run('apt-get', INSTALL);
  }
  if (!system.exists(system.path)) {
    throw new Error(
      `Chromium is missing at ${system.path} and could not be installed here: install it with ` +
        '"sudo apt-get install -y --no-install-recommends chromium" (Debian; the snap-free package of Ubuntu is chromium-browser), then run the browser tests again.',
    );
  }
  return system.path;
}
