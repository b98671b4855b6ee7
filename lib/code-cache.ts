import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { compileFunction } from 'node:vm';
import { sameContent, stampOf } from './file-stamp.js';

/**
 * A CommonJS file compiled with V8's code cache kept in `<file>.cache`, so that V8 deserializes its top-level
 * code instead of parsing the whole file again. (Node 22 does this itself with `module.enableCompileCache()`;
 * Node 20 has only the `cachedData` of `vm`.)
 *
 * `vm.compileFunction`, as Node's own CommonJS loader compiles, and not `vm.Script`: on Node 20.20 a server
 * compiled by `vm.Script` spent 4–5 µs more per call, measured (its cache, made after a start, would have
 * saved another 50 ms of that start). The cache therefore holds what V8 compiles up front.
 *
 * V8 checks a cache against its own version and flags, and against the source's length only: the cache's
 * header names the file it was made from by its content (lib/file-stamp.ts: its size and SHA-256, which
 * survive `npm pack` and `npm install` where a modification time does not), and is used only while the file
 * still holds those bytes. A cache that is missing, stale or refused costs the parse it would have saved,
 * nothing else.
 *
 * The file may not use `import()`: Node 20 does not give code compiled from a cache a loader for it.
 */
export interface CachedModule<T> {
  readonly exports: T;
  /** What became of the cache: taken by V8, refused by it, not offered (made from other bytes, or damaged), or absent. */
  readonly cache: CacheUse;
}

export type CacheUse = 'taken' | 'refused' | 'stale' | 'absent';

const PARAMETERS = ['exports', 'require', 'module', '__filename', '__dirname'];

export const codeCachePath = (file: string): string => `${file}.cache`;

/** Runs the file as Node runs a CommonJS module, from its cache when there is a fresh one. */
export function requireWithCodeCache<T>(path: string): CachedModule<T> {
  const file = resolve(path);
  const source = readFileSync(file);
  const cached = readCache(file, source);
  const cachedData = typeof cached === 'string' ? undefined : cached;
  const wrapper = compileFunction(source.toString('utf8'), PARAMETERS, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} as T };
  wrapper(module.exports, createRequire(file), module, file, dirname(file));
  return { exports: module.exports, cache: typeof cached === 'string' ? cached : wrapper.cachedDataRejected === true ? 'refused' : 'taken' };
}

/** Compiles the file (without running it) and writes its cache beside it. */
export function writeCodeCache(path: string): void {
  const file = resolve(path);
  const source = readFileSync(file);
  const wrapper = compileFunction(source.toString('utf8'), PARAMETERS, { filename: file, produceCachedData: true });
  if (!wrapper.cachedData) throw new Error(`V8 made no code cache of ${file}`);
  const header = Buffer.from(JSON.stringify(stampOf(source)));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  writeFileSync(codeCachePath(file), Buffer.concat([length, header, wrapper.cachedData]));
}

/** The V8 data of the cache made from `source` (the file's bytes as they are now), or why there is none to offer. */
function readCache(file: string, source: Buffer): Buffer | 'stale' | 'absent' {
  let cache: Buffer;
  try {
    cache = readFileSync(codeCachePath(file));
  } catch {
    return 'absent';
  }
  if (cache.length < 4) return 'stale';
  const end = 4 + cache.readUInt32LE(0);
  try {
    return sameContent(JSON.parse(cache.subarray(4, end).toString('utf8')), source) ? cache.subarray(end) : 'stale';
  } catch {
    return 'stale';
  }
}
