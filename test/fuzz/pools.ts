import type { BaseDatabase } from '../../server/core/data/base.js';

/**
 * Values the databases hold, by field name: every string found under a field of that name
 * anywhere in a record, and every record key under `<table>`'s id field name. A fuzzed argument
 * drawn from the pool of its own name finds real records, so calls reach the tools' rules and
 * their writes, not only "not found".
 */
export type Pools = ReadonlyMap<string, readonly string[]>;

const PER_FIELD = 300;

export function valuePools(bases: ReadonlyMap<string, BaseDatabase>): Pools {
  const pools = new Map<string, Set<string>>();
  const add = (field: string, value: string) => {
    let pool = pools.get(field);
    if (!pool) {
      pool = new Set();
      pools.set(field, pool);
    }
    if (pool.size < PER_FIELD) pool.add(value);
  };
  const walk = (value: unknown, field: string | undefined, depth: number) => {
    if (depth > 8) return;
    if (typeof value === 'string' && field !== undefined) add(field, value);
    else if (Array.isArray(value)) for (const item of value) walk(item, field, depth + 1);
    else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) walk(inner, key, depth + 1);
    }
  };
  for (const base of bases.values()) {
    for (const table of base.tables.values()) {
      let seen = 0;
      for (const record of table.values()) {
        // Every 7th record past the first ones: a spread over the table, the same on every run.
        if (seen++ > 40 && seen % 7 !== 0) continue;
        walk(record, undefined, 0);
      }
    }
  }
  // Lists of ids are named in the plural (`item_ids`): the singular's pool serves them.
  for (const [field, pool] of [...pools]) if (!pools.has(`${field}s`)) pools.set(`${field}s`, pool);
  return new Map([...pools].map(([field, pool]) => [field, [...pool]]));
}
