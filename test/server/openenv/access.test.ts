import t from 'tap';
import { OpenEnvClient } from '../../../client/openenv.js';
import { startServer } from '../../helpers/server.js';
import { connectClient, protocolChecks, SEED, TASK } from '../../helpers/openenv.js';

// With API_TOKEN set, OpenEnv's routes are API routes: the WebSocket upgrade and the HTTP routes need the
// token; its health check is public like /health.

const API = 'api-token-0123456789abcdefgh';
const ADMIN = 'admin-token-0123456789abcdef';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

t.test('API_TOKEN: the WebSocket and the HTTP routes need it; the health check does not', async (t) => {
  const server = await startServer(t, { access: { apiToken: API, adminToken: ADMIN } });
  const base = `${server.origin}/openenv`;
  for (const options of [{}, { token: 'wrong-token-0123456789' }]) {
    const refused = await OpenEnvClient.connect(base, options).then(
      (client) => client.close().then(() => 'connected'),
      (error: { code?: string }) => error.code,
    );
    t.equal(refused, 'CLOSED', `the upgrade ${options.token ? 'with a wrong token' : 'without a token'} fails`);
  }
  const checks = await protocolChecks(t, {
    ...server,
    request: (method, path, body, headers) => server.request(method, path, body, { ...bearer(API), ...headers }),
  });
  for (const token of [API, ADMIN]) {
    const client = await connectClient(t, server, checks, { token });
    t.match(await client.reset({ task: TASK, seed: SEED, kinds: [] }), { done: false, observation: { task: { id: TASK } } }, 'with a token, an episode runs');
    await client.close();
  }

  t.equal((await server.request('GET', '/health')).status, 200, '/health is public');
  t.match(await server.request('GET', '/openenv/health'), { status: 200, body: { status: 'healthy' } }, '/openenv/health too');
  for (const [method, path, body] of [
    ['GET', '/openenv/metadata', undefined],
    ['GET', '/openenv/schema', undefined],
    ['GET', '/openenv/state', undefined],
    ['POST', '/openenv/reset', { task: TASK, seed: SEED }],
    ['POST', '/openenv/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
  ] as const) {
    t.match(await server.request(method, path, body), { status: 401, body: { code: 'unauthorized' } }, `${method} ${path} without a token`);
    t.equal((await server.request(method, path, body, bearer(API))).status, 200, `${method} ${path} with the token`);
  }
});
