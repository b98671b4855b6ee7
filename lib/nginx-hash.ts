import { crc32 } from 'node:zlib';

/**
 * nginx's consistent hash (`hash $key consistent`, ngx_http_upstream_hash_module), computed the way
 * nginx computes it, so that a process behind nginx can tell which upstream a key goes to: 160 points
 * per server (times its weight) on a ring of CRC32 values, each point `crc32(host \0 port prev_point)`,
 * and a key goes to the first point at or after `crc32(key)`, wrapping around.
 */
export class NginxHashRing {
  private readonly hashes: Uint32Array;
  private readonly owners: number[];

  /** `servers`: the `server` addresses of the upstream block, exactly as written there (`10.0.0.5:8080`). */
  constructor(
    readonly servers: readonly string[],
    weights: readonly number[] = servers.map(() => 1),
  ) {
    const points: { hash: number; server: number }[] = [];
    servers.forEach((server, index) => {
      const base = crc32(hostAndPort(server));
      const previous = Buffer.alloc(4);
      for (let n = 0; n < 160 * (weights[index] ?? 1); n++) {
        const hash = crc32(previous, base);
        points.push({ hash, server: index });
        previous.writeUInt32LE(hash);
      }
    });
    points.sort((a, b) => a.hash - b.hash);
    // nginx keeps one point per hash value.
    const kept = points.filter((point, i) => i === 0 || point.hash !== points[i - 1]!.hash);
    this.hashes = Uint32Array.from(kept, (point) => point.hash);
    this.owners = kept.map((point) => point.server);
  }

  /** The server a key goes to while every server is up (its index in `servers`). */
  ownerOf(key: string): number {
    const hash = crc32(key);
    let low = 0;
    let high = this.hashes.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const point = this.hashes[middle]!;
      if (hash > point) low = middle + 1;
      else if (hash < point) high = middle;
      else return this.owners[middle]!;
    }
    return this.owners[low % this.hashes.length]!;
  }
}

/** `host \0 port` as nginx hashes a server address: the port is what follows the last `:` when it is all digits. */
function hostAndPort(server: string): Buffer {
  if (server.toLowerCase().startsWith('unix:')) return Buffer.concat([Buffer.from(server.slice(5)), Buffer.from([0])]);
  const colon = server.lastIndexOf(':');
  const port = colon < 0 ? '' : server.slice(colon + 1);
  if (colon < 0 || !/^\d*$/.test(port)) return Buffer.concat([Buffer.from(server), Buffer.from([0])]);
  return Buffer.concat([Buffer.from(server.slice(0, colon)), Buffer.from([0]), Buffer.from(port)]);
}
