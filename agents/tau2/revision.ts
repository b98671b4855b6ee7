import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The checkout's commit: what its own .git/HEAD names, else `git rev-parse HEAD` when the folder is the top of
 * its repository (a folder inside another repository has no revision of its own), else "unknown".
 */
export function checkoutRevision(checkout: string): string {
  const own = headFile(checkout);
  if (own) return own;
  try {
    const git = (...args: string[]) => execFileSync('git', ['-C', checkout, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (realpathSync(git('rev-parse', '--show-toplevel')) !== realpathSync(checkout)) return 'unknown (not a git checkout of its own)';
    return git('rev-parse', 'HEAD');
  } catch {
    return 'unknown';
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
