import { existsSync } from 'node:fs';

// Tests that drive a real program from Debian's packages need it installed beforehand: they install nothing
// themselves. `.ci/run` installs every package listed here; on your machine, the command a missing one names.

/** The Debian packages the full tier needs, the program each provides, and which tests use it. */
export const SYSTEM_PACKAGES = {
  chromium: { path: '/usr/bin/chromium', for: 'the browser tests (test/browser/): the session pages in headless Chromium' },
  nginx: { path: '/usr/sbin/nginx', for: 'the cluster test (test/cluster/): three replicas behind the shipped nginx configuration' },
} as const;

export type SystemPackage = keyof typeof SYSTEM_PACKAGES;

/** The command that installs `names`, as root on Debian. */
export const installCommand = (names: readonly string[]): string => `apt-get install -y --no-install-recommends ${names.join(' ')}`;

/**
 * The path of Debian's package `name`'s program (`path` replaces the usual one); when it is missing, an error that
 * says which tests need it and the command that installs it.
 */
export function requirePackage(name: SystemPackage, path: string = SYSTEM_PACKAGES[name].path, exists: (path: string) => boolean = existsSync): string {
  if (exists(path)) return path;
  throw new Error(
    `${path} is missing: ${SYSTEM_PACKAGES[name].for} need Debian's ${name}, and tests install nothing. Install it with ` +
      `"sudo ${installCommand([name])}" (what .ci/run does), then run the tests again.`,
  );
}
