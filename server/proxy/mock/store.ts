import type { Session } from '../../core/sessions/session.js';

export type MockRecord = Record<string, unknown>;

/** One mock's records in one session: resource → id → record, in creation order. */
export class MockStore {
  private readonly resources = new Map<string, Map<string, MockRecord>>();
  /** Ids handed out per resource, for the next generated one. */
  private readonly counters = new Map<string, number>();

  constructor(initial: Readonly<Record<string, readonly MockRecord[]>>, idOf: (resource: string, record: MockRecord) => unknown) {
    for (const [resource, records] of Object.entries(initial))
      for (const [index, record] of records.entries()) this.put(resource, String(idOf(resource, record) ?? index + 1), structuredClone(record));
  }

  list(resource: string): MockRecord[] {
    return [...(this.resources.get(resource)?.values() ?? [])];
  }

  get(resource: string, id: string): MockRecord | undefined {
    return this.resources.get(resource)?.get(id);
  }

  put(resource: string, id: string, record: MockRecord): void {
    const records = this.resources.get(resource) ?? new Map<string, MockRecord>();
    this.resources.set(resource, records);
    records.set(id, record);
  }

  delete(resource: string, id: string): boolean {
    return this.resources.get(resource)?.delete(id) ?? false;
  }

  /** The next number for a generated id of the resource: past every record it holds. */
  nextNumber(resource: string): number {
    const next = Math.max(this.counters.get(resource) ?? 0, this.resources.get(resource)?.size ?? 0) + 1;
    this.counters.set(resource, next);
    return next;
  }

  /** Every record, by resource: what the session's state of the mock is. */
  snapshot(): Record<string, MockRecord[]> {
    return Object.fromEntries([...this.resources].map(([resource, records]) => [resource, [...records.values()]]));
  }
}

interface Held {
  generation: number;
  /** By mock: a mock declared again under the same name starts afresh. */
  stores: WeakMap<object, MockStore>;
}

const held = new WeakMap<Session, Held>();

/** A session's store of one mock, made from the initial records on first use and after a reset. */
export function sessionStore(session: Session, mock: object, make: () => MockStore): MockStore {
  let entry = held.get(session);
  if (!entry || entry.generation !== session.generation) {
    entry = { generation: session.generation, stores: new WeakMap() };
    held.set(session, entry);
  }
  const store = entry.stores.get(mock) ?? make();
  entry.stores.set(mock, store);
  return store;
}
