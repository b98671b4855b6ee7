import type { JournalEntry } from './journal.js';

/** A write done under an idempotency key: what it was called with and what it answered. */
export interface Remembered {
  /** The call's arguments without the key, as stable JSON. */
  fingerprint: string;
  result: unknown;
  /** The journal sequence number of the call that wrote. */
  seq: number;
}

/** Keys a session remembers; the oldest is forgotten first (real APIs expire keys after a day or so). */
export const IDEMPOTENCY_KEYS_KEPT = 100;

/**
 * The arguments of a call without its idempotency key, as JSON with sorted members. A null member
 * counts as absent, as the call takes a null optional argument (server/call.ts): a retry that omits
 * what the first call sent as null is the same call. No tool input takes null as a value of its own.
 */
export function fingerprint(args: unknown): string {
  const sorted = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sorted);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.keys(value)
        .filter((key) => key !== 'idempotency_key' && (value as Record<string, unknown>)[key] !== null)
        .sort()
        .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
    );
  };
  return JSON.stringify(sorted(args));
}

/** The idempotency keys of one session's writes, per domain and tool. */
export class IdempotencyKeys {
  private keys = new Map<string, Remembered>();
  /** The key each recent write pushed out (by its sequence number): a write taken back gives it back. */
  private readonly pushedOut = new Map<number, [string, Remembered]>();

  get(domain: string, tool: string, key: string): Remembered | undefined {
    return this.keys.get(`${domain}/${tool}/${key}`);
  }

  /** Remembers a journaled call that wrote under a key (a first call, not a replay). */
  remember(entry: JournalEntry): void {
    const key = entry.idempotency;
    if (!key || key.replayed !== undefined) return;
    const wrote = (entry.status >= 200 && entry.status < 300) || entry.hazards.some((event) => event.committed === true);
    if (!wrote) return;
    const id = `${entry.domain}/${entry.tool}/${key.key}`;
    this.keys.delete(id);
    this.keys.set(id, { fingerprint: fingerprint(entry.args), result: entry.result, seq: entry.seq });
    if (this.keys.size <= IDEMPOTENCY_KEYS_KEPT) return;
    const [oldest, remembered] = this.keys.entries().next().value!;
    this.keys.delete(oldest);
    this.pushedOut.set(entry.seq, [oldest, remembered]);
    if (this.pushedOut.size > IDEMPOTENCY_KEYS_KEPT) this.pushedOut.delete(this.pushedOut.keys().next().value!);
  }

  /** Forgets the key a call remembered, and gives back, as the oldest, the key it pushed out (a write taken back). */
  forget(entry: JournalEntry): void {
    const key = entry.idempotency;
    if (!key || key.replayed !== undefined) return;
    const id = `${entry.domain}/${entry.tool}/${key.key}`;
    if (this.keys.get(id)?.seq !== entry.seq) return;
    this.keys.delete(id);
    const pushed = this.pushedOut.get(entry.seq);
    if (!pushed) return;
    this.pushedOut.delete(entry.seq);
    this.keys = new Map([pushed, ...this.keys]);
  }

  clear(): void {
    this.keys.clear();
    this.pushedOut.clear();
  }

  save(): [string, Remembered][] {
    return [...this.keys];
  }

  load(saved: readonly [string, Remembered][]): void {
    for (const [id, remembered] of saved) this.keys.set(id, remembered);
  }
}
