import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { Script } from 'node:vm';

/**
 * A CommonJS file run through V8's code cache: the bytecode of every function compiled while it last
 * started, kept in `<file>.cache`, so that V8 deserializes it instead of parsing and compiling the source
 * again. (Node 22 does this itself with `module.enableCompileCache()`; Node 20 has only `vm.Script`'s
 * `cachedData`.)
 *
 * V8 checks a cache against its own version and flags, and against the source's length only: the cache's
 * header names the file it was made from by its size and modification time, and is used only while the
 * file still has both. A cache that is missing, stale or rejected costs the parse it would have saved,
 * nothing else.
 *
 * The file may not use `import()`: Node 20 does not give a script run from a code cache a loader for it.
 */
export interface CachedModule<T> {
  readonly exports: T;
  /** Whether V8 took the cache (false when there was none to offer). */
  readonly cacheAccepted: boolean;
  /** Writes the cache of everything compiled so far, beside the file. */
  writeCache(): void;
}

interface CacheHeader {
  bytes: number;
  mtimeMs: number;
}

const WRAPPER = ['(function (exports, require, module, __filename, __dirname) {', '\n})'] as const;

export const codeCachePath = (file: string): string => `${file}.cache`;

export function requireWithCodeCache<T>(path: string): CachedModule<T> {
  const file = resolve(path);
  const { size: bytes, mtimeMs } = statSync(file);
  const cachedData = readCache(file, { bytes, mtimeMs });
  const script = new Script(WRAPPER[0] + readFileSync(file, 'utf8') + WRAPPER[1], {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  const module = { exports: {} as T };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, dirname(file));
  return {
    exports: module.exports,
    cacheAccepted: cachedData !== undefined && !script.cachedDataRejected,
    writeCache() {
      const header = Buffer.from(JSON.stringify({ bytes, mtimeMs } satisfies CacheHeader));
      const length = Buffer.alloc(4);
      length.writeUInt32LE(header.length);
      writeFileSync(codeCachePath(file), Buffer.concat([length, header, script.createCachedData()]));
    },
  };
}

/** The V8 data of the cache made from the file as it is now; undefined when there is none. */
function readCache(file: string, source: CacheHeader): Buffer | undefined {
  let cache: Buffer;
  try {
    cache = readFileSync(codeCachePath(file));
  } catch {
    return undefined;
  }
  if (cache.length < 4) return undefined;
  const end = 4 + cache.readUInt32LE(0);
  try {
    const header = JSON.parse(cache.subarray(4, end).toString('utf8')) as Partial<CacheHeader>;
    return header.bytes === source.bytes && header.mtimeMs === source.mtimeMs ? cache.subarray(end) : undefined;
  } catch {
    return undefined;
  }
}
