import { readFileSync } from 'node:fs';
import t from 'tap';
import { z } from 'zod';
import { domains } from '../../domains/index.js';
import { parseUpstream } from '../../server/proxy/config.js';
import { startServer } from '../helpers/server.js';

// Every request body of the OpenAPI documents carries an example that its schema accepts, so that Swagger UI's
// "Try it out" starts from a body that works; a tool's example succeeds in a new session over the embedded data.

type Operation = { operationId: string; requestBody?: { content: Record<string, { schema: unknown; example?: unknown }> } };
type Document = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, unknown> } };

const documents = ['openapi', ...domains.map((d) => d.name)].map((name) => ({
  name,
  document: JSON.parse(readFileSync(new URL(`../../openapi/${name}.json`, import.meta.url), 'utf8')) as Document,
}));

const bodies = documents.flatMap(({ name, document }) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, operation]) => operation.requestBody?.content['application/json'])
      .map(([method, operation]) => ({ name, document, path, method, operation, json: operation.requestBody!.content['application/json']! })),
  ),
);

/** The schema with its references to the document's components written out (a reference within itself is left open). */
function inlined(schema: unknown, document: Document, seen: readonly string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inlined(item, document, seen));
  if (typeof schema !== 'object' || schema === null) return schema;
  const { $ref, ...rest } = schema as Record<string, unknown>;
  if (typeof $ref === 'string' && $ref.startsWith('#/components/schemas/')) {
    const name = $ref.slice('#/components/schemas/'.length);
    if (seen.includes(name)) return {};
    return inlined({ ...(document.components?.schemas?.[name] as object), ...rest }, document, [...seen, name]);
  }
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, inlined(value, document, seen)]));
}

const isTool = (path: string) => /^(?:\/[^/]+)?\/tools\/[^/]+$/.test(path);

t.test('every request body has an example its schema accepts', async (t) => {
  t.ok(bodies.length > 180, `${bodies.length} request bodies in ${documents.length} documents`);
  const without = bodies.filter(({ json }) => !('example' in json)).map(({ name, method, path }) => `${name}: ${method.toUpperCase()} ${path}`);
  t.same(without, [], `operations without an example: ${without.length}`);
  for (const { name, document, method, path, json } of bodies) {
    if (!('example' in json)) continue;
    const schema = z.fromJSONSchema(inlined(json.schema, document) as never);
    const parsed = schema.safeParse(json.example);
    t.ok(parsed.success, `${name}: ${method.toUpperCase()} ${path}: the example fits its schema`, { issues: parsed.error?.issues });
  }
});

t.test('a schema that refuses an example is caught', async (t) => {
  const { document, json } = bodies.find(({ path }) => path === '/retail/tools/cancel_pending_order')!;
  const schema = z.fromJSONSchema(inlined(json.schema, document) as never);
  t.ok(schema.safeParse(json.example).success);
  t.notOk(schema.safeParse({ ...(json.example as object), reason: 42 }).success, 'a wrong type fails');
  t.notOk(schema.safeParse({ ...(json.example as object), surprise: 1 }).success, 'an unknown field fails (strict schemas)');
});

t.test("every tool's example succeeds in a new session, in its domain and in the combined view", async (t) => {
  const server = await startServer(t);
  const tools = bodies.filter(({ method, path }) => method === 'post' && isTool(path));
  t.equal(tools.length, 86 + domains.reduce((sum, domain) => sum + domain.tools.length, 0), 'each tool in its domain and in the combined view');
  let n = 0;
  for (const { name, path, json } of tools) {
    const session = `example-${n++}`;
    const reply = await server.request('POST', `/s/${session}${path}`, json.example);
    t.ok(reply.status >= 200 && reply.status < 300, `${name}: POST ${path} answers ${reply.status}`, { body: reply.body });
    await server.request('DELETE', `/sessions/${session}`);
  }
});

t.test('the examples of the server routes work as sent', async (t) => {
  const server = await startServer(t);
  const example = (path: string, method = 'post') => bodies.find((body) => body.path === path && body.method === method)!.json.example;
  const created = await server.request('POST', '/sessions', example('/sessions'));
  t.equal(created.status, 201, 'POST /sessions');
  t.equal(created.body.seed, 42);
  t.equal((await server.request('POST', '/batches', example('/batches'))).status, 201, 'POST /batches');
  t.equal((await server.request('POST', '/score', example('/score'))).status, 200, 'POST /score');
  t.equal((await server.request('PUT', '/admin/hazards', example('/admin/hazards', 'put'))).status, 200, 'PUT /admin/hazards');
  const reset = await server.request('POST', '/openenv/reset', example('/openenv/reset'));
  t.equal(reset.status, 200, 'POST /openenv/reset');
  const step = await server.request('POST', '/openenv/step', example('/openenv/step'), { 'x-session-id': String(reset.headers['x-session-id']) });
  t.equal(step.status, 200, 'POST /openenv/step');
  const task = await server.newSession({ task: 'retail/001', seed: 0, kinds: [] });
  const answered = await server.request('POST', `/sessions/${task}/answer`, example('/sessions/{id}/answer'));
  t.equal(answered.status, 200, 'POST /sessions/{id}/answer', { body: answered.body });
  t.doesNotThrow(() => parseUpstream(example('/admin/proxies/{name}', 'put'), 'body'), 'PUT /admin/proxies/{name}: an upstream as PROXY_CONFIG takes it');
});
