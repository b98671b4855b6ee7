import { createHash } from 'node:crypto';
import type { JournalEntry } from './journal.js';

/** A write done under an idempotency key: what it was called with and what it answered. */
export interface Remembered {
  /** A digest of the call's arguments without the key (see `fingerprint`). */
  fingerprint: string;
  result: unknown;
  /** The journal sequence number of the call that wrote. */
  seq: number;
  /** The tool that wrote (a key belongs to one request: another tool sending it is refused). */
  domain: string;
  tool: string;
  /** The session clock's time of the write, epoch milliseconds: the key is kept for IDEMPOTENCY_KEY_TTL_MS from it. */
  at: number;
}

/**
 * How long a key is kept, in session time: a day, as payment APIs keep theirs (Stripe: 24 hours). A retry
 * after that is a new operation.
 */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * The most keys a session keeps, whatever their age: everything a client can make the server keep is
 * bounded. Generous (a task makes tens of writes); a key costs its text, a digest and a reference to
 * the result. Past it the oldest key is forgotten first.
 */
export const IDEMPOTENCY_KEYS_KEPT = 10_000;

/**
 * The arguments of a call without its idempotency key, as a digest of their JSON with sorted members
 * (a digest, so that a kept key costs the same whatever the arguments' size). A null member counts as
 * absent, as the call takes a null optional argument (server/core/call.ts): a retry that omits what the first
 * call sent as null is the same call. No tool input takes null as a value of its own.
 */
export function fingerprint(args: unknown): string {
  return digest(stableJson(args));
}

const digest = (text: string) => createHash('sha256').update(text).digest('base64url');

function stableJson(args: unknown): string {
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

/**
 * The idempotency keys of one session's writes. A key belongs to the session, across domains and tools
 * (as a real API scopes keys to the account), and is kept for a day of session time, at most
 * IDEMPOTENCY_KEYS_KEPT of them. Keys are held oldest first (the session clock only moves forward).
 */
export class IdempotencyKeys {
  private keys = new Map<string, Remembered>();
  /** The key each recent write pushed out over the cap (by its sequence number): a write taken back gives it back. */
  private readonly pushedOut = new Map<number, [string, Remembered]>();

  /** The write done under `key` that is still kept at session time `now` (epoch ms). */
  get(key: string, now: number): Remembered | undefined {
    const remembered = this.keys.get(key);
    return remembered && !expired(remembered, now) ? remembered : undefined;
  }

  /** Remembers a journaled call that wrote under a key (a first call, not a replay), and forgets the keys expired by its time. */
  remember(entry: JournalEntry): void {
    const key = entry.idempotency;
    if (!key || key.replayed !== undefined) return;
    const wrote = (entry.status >= 200 && entry.status < 300) || entry.hazards.some((event) => event.committed === true);
    if (!wrote) return;
    this.keys.delete(key.key);
    this.keys.set(key.key, {
      fingerprint: fingerprint(entry.args),
      result: entry.result,
      seq: entry.seq,
      domain: entry.domain,
      tool: entry.tool,
      at: entry.at,
    });
    for (const [oldest, remembered] of this.keys) {
      if (!expired(remembered, entry.at)) break;
      this.keys.delete(oldest);
    }
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
    if (this.keys.get(key.key)?.seq !== entry.seq) return;
    this.keys.delete(key.key);
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

  /**
   * Reads back what `save` wrote. A snapshot from before keys belonged to the session holds
   * `{domain}/{tool}/{key}` ids, the arguments' JSON and no time: the key is read as the session's,
   * its fingerprint digested, and its time taken as `now` (it is kept a day from the restart).
   */
  load(saved: readonly [string, Remembered | LegacyRemembered][], now: number): void {
    for (const [id, remembered] of saved) {
      if ('domain' in remembered) {
        this.keys.set(id, remembered);
        continue;
      }
      const [, domain = '', tool = '', key = id] = /^([^/]*)\/([^/]*)\/(.*)$/s.exec(id) ?? [];
      this.keys.delete(key);
      this.keys.set(key, { fingerprint: digest(remembered.fingerprint), result: remembered.result, seq: remembered.seq, domain, tool, at: now });
    }
  }
}

/** A key as snapshots saved it before keys were scoped to the session (per tool, without a time). */
export interface LegacyRemembered {
  fingerprint: string;
  result: unknown;
  seq: number;
}

const expired = (remembered: Remembered, now: number) => now - remembered.at >= IDEMPOTENCY_KEY_TTL_MS;
