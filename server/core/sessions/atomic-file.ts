import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Replaces a file's content all at once: written beside it, then renamed over it, so a crash
 * leaves the old content or the new, never a mix. With `fsync`, the data is flushed to the disk
 * before the rename; the caller flushes the folder (`syncFolder`) once the renames it needs are done.
 */
export async function writeFileAtomic(path: string, text: string, fsync: boolean): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.tmp`);
  const file = await open(temporary, 'w');
  try {
    await file.writeFile(text);
    if (fsync) await file.datasync();
  } finally {
    await file.close();
  }
  try {
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/** Flushes a folder's entries (a rename, a new or a deleted file) to the disk. */
export async function syncFolder(path: string): Promise<void> {
  const folder = await open(path, 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

/**
 * Writes `text` at `offset` of a file, first cutting it there: what an interrupted append left past the
 * offset (bytes no snapshot counts) is replaced, never built upon. With `fsync`, flushed before it returns.
 */
export async function writeAt(path: string, offset: number, text: string, fsync: boolean): Promise<void> {
  const file = await open(path, 'r+');
  try {
    await file.truncate(offset);
    await file.write(text, offset, 'utf8');
    if (fsync) await file.datasync();
  } finally {
    await file.close();
  }
}
