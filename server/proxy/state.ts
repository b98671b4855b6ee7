import type { HazardSession } from '../../hazards/call-context.js';
import type { Table } from '../../lib/table.js';
import type { Session } from '../core/sessions/session.js';

/** The answers a session's reads got from an upstream, by operation and path: what a lagging cache would still serve. */
export class ReadCache {
  /** Most recent answers kept per session; the oldest goes first. */
  static readonly LIMIT = 64;
  private readonly answers = new Map<string, unknown>();

  get(operation: string, path: string): unknown {
    return this.answers.get(`${operation} ${path}`);
  }

  set(operation: string, path: string, answer: unknown): void {
    const key = `${operation} ${path}`;
    this.answers.delete(key);
    this.answers.set(key, answer);
    if (this.answers.size > ReadCache.LIMIT) this.answers.delete(this.answers.keys().next().value!);
  }
}

/** What a proxied upstream's scenarios read in place of a database: the session's own view of it. */
export interface ProxyState {
  readonly reads: ReadCache;
}

interface View {
  hazards: HazardSession;
  state: ProxyState;
  generation: number;
}

const views = new WeakMap<Session, View>();

/**
 * A session as the hazard engine sees it for proxied calls: the same id, seed, settings and counters, with
 * the proxy's state in place of a domain database. One object per session, so that the engine's per-session
 * memory (plans, effects on later calls) holds across calls.
 */
export function proxyView(session: Session): View {
  let view = views.get(session);
  // A reset session starts afresh: no cached reads, no effects of earlier hazards.
  if (!view || view.generation !== session.generation) {
    const state: ProxyState = { reads: new ReadCache() };
    const tables = state as unknown as Record<string, Table<unknown>>;
    view = {
      generation: session.generation,
      state,
      hazards: {
        id: session.id,
        seed: session.seed,
        scope: session.scope,
        options: session.options,
        callCount: (domain, tool) => session.callCount(domain, tool),
        faultStreak: (domain, tool) => session.faultStreak(domain, tool),
        domain: () => ({ tables }),
      },
    };
    views.set(session, view);
  }
  return view;
}
