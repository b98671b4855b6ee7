import type { CacheUse } from '../lib/code-cache.js';
import type { BaseDatabase } from './core/data/base.js';

/** How the server's code was loaded: the bundle (dist/bundle/server.cjs) and what became of its V8 code cache, or module by module. */
export type CodePath = { readonly from: 'bundle'; readonly codeCache: CacheUse } | { readonly from: 'modules' };

export const FROM_MODULES: CodePath = { from: 'modules' };

/**
 * The line the server logs once built (info): the start path it took, so that a slow start can be told from a fast
 * one by reading, not by timing: `started from the bundle (code cache taken); databases: retail prepared, …`.
 */
export function startReport(code: CodePath, bases: ReadonlyMap<string, BaseDatabase>): { fields: Record<string, unknown>; message: string } {
  const databases = Object.fromEntries([...bases].map(([name, base]) => [name, base.prepared === true ? 'prepared' : 'validated']));
  const from = code.from === 'bundle' ? `the bundle (code cache ${code.codeCache})` : 'the modules';
  return {
    fields: { start: { ...code, databases } },
    message: `started from ${from}; databases: ${Object.entries(databases)
      .map(([name, how]) => `${name} ${how}`)
      .join(', ')}`,
  };
}
