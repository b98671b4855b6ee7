import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildCrm } from '../../../examples/upstream-crm/app.js';
import { CRM_DOCUMENT } from '../../helpers/proxy.js';

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
