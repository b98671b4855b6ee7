import semver from 'semver';

// Which packages of a lock file refuse a Node.js version (what npm reports as EBADENGINE).

export type LockedPackages = Record<string, { engines?: { node?: string } | string[] }>;

/** Locked packages whose `engines.node` refuses `version`, as "name (range)". */
export function refusing(packages: LockedPackages, version: string): string[] {
  const refused: string[] = [];
  for (const [path, entry] of Object.entries(packages)) {
    const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
    if (path !== '' && range && !semver.satisfies(version, range)) refused.push(`${path.replace(/^node_modules\//, '')} (${range})`);
  }
  return refused;
}
