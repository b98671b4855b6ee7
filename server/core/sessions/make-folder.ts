import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * `mkdir -p`, one level at a time. Node's recursive mkdir never returns on some paths (`/proc/x` on
 * Node 20); a path that names a file fails with ENOTDIR.
 */
export async function makeFolder(path: string): Promise<void> {
  try {
    if ((await stat(path)).isDirectory()) return;
    throw Object.assign(new Error(`ENOTDIR: not a folder, ${path}`), { code: 'ENOTDIR' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const parent = dirname(path);
  if (parent !== path) await makeFolder(parent);
  await mkdir(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
}
