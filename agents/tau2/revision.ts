import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The checkout's commit: `git rev-parse HEAD`, else what .git/HEAD names, else "unknown". */
export function checkoutRevision(checkout: string): string {
  try {
    return execFileSync('git', ['-C', checkout, 'rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return headFile(checkout) ?? 'unknown';
  }
}

function headFile(checkout: string): string | undefined {
  const git = join(checkout, '.git');
  const head = join(git, 'HEAD');
  if (!existsSync(head)) return undefined;
  const text = readFileSync(head, 'utf8').trim();
  const ref = /^ref: (refs\/[\w./-]+)$/.exec(text)?.[1];
  if (!ref) return /^[0-9a-f]{40}$/.test(text) ? text : undefined;
  const file = join(git, ref);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}
