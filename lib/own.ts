/**
 * Lookups by a key a client sent. A plain object inherits `constructor`, `toString`, `__proto__`
 * and friends from Object.prototype; a client's key must never find those. Every lookup by a
 * client-given key into a plain object goes through here (tables are Maps and need nothing).
 */

/** True when `record` holds `key` as its own entry. */
export const hasOwn = (record: object, key: PropertyKey): boolean => Object.hasOwn(record, key);

/** The value `record` holds under `key` as its own entry; undefined for any other name. */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
