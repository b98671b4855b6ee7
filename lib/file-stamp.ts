import { createHash } from 'node:crypto';

/**
 * A file named by its content: its size and the SHA-256 of its bytes. A build artifact made from the file records
 * it, so that the artifact is used only while the file still holds those bytes (the prepared databases, the
 * bundle's code cache). Not its modification time: `npm pack` and `npm install` rewrite every one, and an
 * installed package would never use its artifacts; nor would a clone whose checkout or copy touched them.
 */
export interface FileStamp {
  readonly bytes: number;
  readonly sha256: string;
}

const sha256 = (content: Uint8Array): string => createHash('sha256').update(content).digest('hex');

export const stampOf = (content: Uint8Array): FileStamp => ({ bytes: content.byteLength, sha256: sha256(content) });

/** Whether `recorded` (read back from an artifact, so of any shape) names a file of this content; hashes only when the sizes agree. */
export function sameContent(recorded: unknown, content: Uint8Array): boolean {
  const stamp = recorded as Partial<FileStamp> | null | undefined;
  return stamp?.bytes === content.byteLength && typeof stamp.sha256 === 'string' && stamp.sha256 === sha256(content);
}
