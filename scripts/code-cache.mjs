// After bundling: starts the bundled server once (embedded databases, no hazards), answers a first call, and
// writes V8's code cache of everything that compiled beside the bundle (lib/code-cache.ts), so that
// `npm start` deserializes that code instead of parsing and compiling it again.
import { fileURLToPath } from 'node:url';
import { requireWithCodeCache } from '../dist/lib/code-cache.js';

const server = requireWithCodeCache(fileURLToPath(new URL('../dist/bundle/server.cjs', import.meta.url)));
const { app } = await server.exports.prepare({ LOG_LEVEL: 'silent' });
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address();
for (const [path, body] of [['/health'], ['/retail/tools/list_all_product_types', {}], ['/retail/tools/get_order_details', { order_id: '#0' }]]) {
  const answer = await fetch(
    `http://127.0.0.1:${port}${path}`,
    body ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {},
  );
  await answer.arrayBuffer();
}
await app.close();
server.writeCache();
console.log('wrote the code cache of the bundle');
