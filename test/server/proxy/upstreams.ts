import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCrm } from '../../../examples/upstream-crm/app.js';
import { domains } from '../../../domains/index.js';
import { buildApp } from '../../../server/app.js';
import { CRM_DOCUMENT, client } from '../../helpers/proxy.js';
import { fixtureBases } from '../../helpers/server.js';

// Upstreams the proxy tests start on loopback, besides the example CRM of test/helpers/proxy.ts.

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** A plain HTTP server on a free loopback port (an upstream that misbehaves as a test needs); its origin. */
export async function listen(t: Teardown, handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The example CRM serving its own OpenAPI document at /openapi.json (where an admin call may fetch it); its origin. */
export async function startCrmWithDocument(t: Teardown): Promise<string> {
  const app = buildCrm();
  app.get('/openapi.json', async () => CRM_DOCUMENT);
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** A path named `name` in a new temporary folder. */
export const tempFile = (name: string): string => join(mkdtempSync(join(tmpdir(), 'wildtools-proxy-')), name);

/** wildtools on loopback with ADMIN_PROXY_EXEC on or off: PUT /admin/proxies/{name} and any request. */
export async function adminApp(t: Teardown, exec: boolean) {
  const app = await buildApp({
    domains,
    bases: await fixtureBases(),
    sessions: { ttlMs: 3_600_000, maxSessions: 10, defaultSeed: '0' },
    proxyExec: exec,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  const request = client(t, `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
  return { request, put: (name: string, body: unknown) => request('PUT', `/admin/proxies/${name}`, body) };
}
