import { randomUUID } from 'node:crypto';
import { NginxHashRing } from '../../../lib/nginx-hash.js';
import { problemError } from '../problem.js';

/**
 * The part of a session id a load balancer routes by: the id up to its first '.', so that the sessions
 * of a batch (`b-1.1`, `b-1.2`, …) live with the batch (`b-1`). The nginx configuration in `deploy/`
 * extracts the same part.
 */
export function routingKey(id: string): string {
  const dot = id.indexOf('.');
  return dot < 0 ? id : id.slice(0, dot);
}

/**
 * One replica's share of the sessions when several run behind nginx hashing session ids (`hash …
 * consistent`) over the same list of replicas (CLUSTER_PEERS): the ids it makes up route back to it, and a
 * session that routes to another replica is refused here rather than created by mistake.
 */
export class SessionOwnership {
  private readonly ring: NginxHashRing;
  private readonly index: number;

  constructor(
    readonly peers: readonly string[],
    readonly self: string,
  ) {
    this.ring = new NginxHashRing(peers);
    this.index = peers.indexOf(self);
    if (this.index < 0) throw new RangeError(`${self} is not one of the peers ${peers.join(', ')}`);
  }

  /** The replica a session id routes to, as CLUSTER_PEERS names it. */
  ownerOf(id: string): string {
    return this.peers[this.ring.ownerOf(routingKey(id))]!;
  }

  owns(id: string): boolean {
    return this.ring.ownerOf(routingKey(id)) === this.index;
  }

  /** A new id (made by `make`, a UUID by default) that routes to this replica: about as many tries as there are peers. */
  newId(make: () => string = randomUUID): string {
    for (;;) {
      const id = make();
      if (this.owns(id)) return id;
    }
  }

  /** Refuses (421 Misdirected Request) a session id that routes to another replica. */
  check(id: string): void {
    if (this.owns(id)) return;
    throw problemError(
      421,
      'misdirected_session',
      `Session '${id}' belongs to the replica ${this.ownerOf(id)}, not to this one (${this.self}): send its requests through the load balancer, ` +
        `naming the session in the path (/s/${id}/…) or in the X-Session-Id header.`,
      { owner: this.ownerOf(id) },
    );
  }
}
