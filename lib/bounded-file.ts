import { closeSync, openSync, readSync } from 'node:fs';

/** A file that could not be read, or is larger than its reader accepts; the message says which, for a caller to prefix with the file's name. */
export class UnreadableFileError extends Error {
  constructor(
    message: string,
    /** The file system's error code (ENOENT, EISDIR…), or `too_large`. */
    readonly code: string,
  ) {
    super(message);
  }
}

const CHUNK = 64 * 1024;

/**
 * The text of a file of at most `limit` bytes. It reads at most one byte past the limit instead of
 * asking the size first: a device or a pipe has none (`/dev/zero` would otherwise be read forever).
 */
export function readBoundedText(path: string, limit: number): string {
  return readBoundedBytes(path, limit).toString('utf8');
}

/** The bytes of a file of at most `limit` bytes, read as readBoundedText reads them. */
export function readBoundedBytes(path: string, limit: number): Buffer {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw unreadable(error);
  }
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK, limit + 1 - total));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      total += read;
      if (total > limit) throw new UnreadableFileError(`larger than ${sizeText(limit)}, the limit`, 'too_large');
    }
    return Buffer.concat(chunks, total);
  } catch (error) {
    throw error instanceof UnreadableFileError ? error : unreadable(error);
  } finally {
    closeSync(fd);
  }
}

function unreadable(error: unknown): UnreadableFileError {
  const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
  return new UnreadableFileError(`cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, code);
}

/** `1 MiB`, `64 MiB`, `512 KiB`: a limit as people read it. */
function sizeText(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes} bytes`;
}
