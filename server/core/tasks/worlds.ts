import type { Domain } from '../../../domains/domain.js';
import { type BaseDatabase, baseFromData } from '../data/base.js';

/** Worlds kept once no instance needs them any more, per server; the least recently used goes first. */
export const CACHED_WORLDS = 16;

/**
 * The database each seed gives a domain's task instances: seed 0 is the database the server loaded (the
 * embedded fixture); any other seed, a world the domain generates on first use and keeps in a bounded cache.
 */
export class Worlds {
  private readonly cache = new Map<string, BaseDatabase>();

  constructor(
    private readonly bases: ReadonlyMap<string, BaseDatabase>,
    private readonly limit = CACHED_WORLDS,
    /** Told when a world leaves the cache: whatever was built on it should go too (sessions running it keep it alive). */
    private readonly evicted: (domain: string, seed: number) => void = () => {},
  ) {}

  /** Whether the domain has worlds for seeds other than 0. */
  static generates(domain: Domain): boolean {
    return domain.world !== undefined;
  }

  /** The seed's world; a failed generation throws, and is not kept. */
  get(domain: Domain, seed: number): BaseDatabase {
    if (seed === 0 || !domain.world) return this.bases.get(domain.name)!;
    const key = `${domain.name}\u0000${seed}`;
    let world = this.cache.get(key);
    if (world) this.cache.delete(key);
    else world = baseFromData(domain, domain.world(seed), `${domain.name} world of seed ${seed}`);
    this.cache.set(key, world);
    if (this.cache.size > this.limit) {
      const oldest = this.cache.keys().next().value!;
      this.cache.delete(oldest);
      const [domainName, seedText] = oldest.split('\u0000') as [string, string];
      this.evicted(domainName, Number(seedText));
    }
    return world;
  }

  get size(): number {
    return this.cache.size;
  }
}
