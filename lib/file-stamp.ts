import type { Stats } from 'node:fs';

/**
 * A file named by its size and modification time: what a build artifact made from it records, so that the
 * artifact is used only while the file is still the one it was made from (the prepared databases, the
 * bundle's code cache).
 */
export interface FileStamp {
  readonly bytes: number;
  readonly mtimeMs: number;
}

export const stampOf = (file: Pick<Stats, 'size' | 'mtimeMs'>): FileStamp => ({ bytes: file.size, mtimeMs: file.mtimeMs });

/** Whether `recorded` (read back from an artifact, so of any shape) names the file with this stat. */
export function sameFile(recorded: unknown, file: Pick<Stats, 'size' | 'mtimeMs'>): boolean {
  const stamp = recorded as Partial<FileStamp> | null | undefined;
  return stamp?.bytes === file.size && stamp.mtimeMs === file.mtimeMs;
}
