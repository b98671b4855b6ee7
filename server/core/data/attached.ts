import type { DatabaseTables } from './base.js';

/**
 * Databases a session holds beside its domains' (a mock's records), by the name its calls are journaled
 * under. A name declared again gets new tables: sessions then start it afresh.
 */
export class AttachedDatabases {
  private readonly bases = new Map<string, DatabaseTables>();

  get(name: string): DatabaseTables | undefined {
    return this.bases.get(name);
  }

  set(name: string, base: DatabaseTables | undefined): void {
    if (base) this.bases.set(name, base);
    else this.bases.delete(name);
  }

  names(): string[] {
    return [...this.bases.keys()];
  }
}
