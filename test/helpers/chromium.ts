import { type DebianHost, debianHost, ensurePackage } from './debian.js';

// The browser tests drive the system's Chromium (Debian's package): installed here when it is missing
// and this process may install it.

export const CHROMIUM = '/usr/bin/chromium';

/** What ensureChromium looks at and runs; tests replace parts of it. */
export interface ChromiumHost extends DebianHost {
  path: string;
}

/**
 * The path of Chromium, installed with apt-get first when it is missing and this process is root on a
 * system with apt-get (an install that fails is retried once after `apt-get update`).
 */
export function ensureChromium(overrides: Partial<ChromiumHost> = {}): string {
  const { path, ...system } = { path: CHROMIUM, ...debianHost(), ...overrides };
  return ensurePackage(
    path,
    'chromium',
    `Chromium is missing at ${path} and could not be installed here: install it with ` +
      '"sudo apt-get install -y --no-install-recommends chromium" (Debian; the snap-free package of Ubuntu is chromium-browser), then run the browser ' +
      'tests again.',
    system,
  );
}
