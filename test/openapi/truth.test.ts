import { readFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import { domains } from '../../domains/index.js';
import type { AnyTool } from '../../domains/tool.js';
import { statusesOf } from '../../lib/error-catalog.js';
import { Registry } from '../../server/core/registry.js';
import { type Reply, startServer, type TestServer } from '../helpers/server.js';

// What the documents declare about every operation is checked against the server: which token it
// needs, whether it reads X-Session-Id, and that its errors are problems.

type Operation = {
  security?: Record<string, string[]>[];
  parameters?: { $ref?: string }[];
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, unknown> }>;
};

const documents = ['openapi', ...domains.map((d) => d.name)].map((name) =>
  JSON.parse(readFileSync(new URL(`../../openapi/${name}.json`, import.meta.url), 'utf8')),
);

const operations = documents.flatMap((document) =>
  Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ document, path, method: method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'DELETE', operation })),
  ),
);

const registry = new Registry(domains);

/** The tool a path calls: /{domain}/tools/{tool}, or /tools/{name} in the combined view. */
function toolOf(path: string): AnyTool | undefined {
  const [, first, second, third] = path.split('/');
  if (first === 'tools') return registry.combined.get(second!)?.tool;
  return second === 'tools' ? registry.byDomain.get(first!)?.get(third!)?.tool : undefined;
}

/** Every tool has an operation in its domain's document and in the combined one. */
const toolOperations = 2 * domains.reduce((sum, domain) => sum + domain.tools.length, 0);

const call = (server: TestServer, { path, method, operation }: (typeof operations)[number], headers: Record<string, string>) =>
  server.request(method, path.replaceAll('{id}', 'default'), operation.requestBody ? {} : undefined, headers);

const requirements = ({ document, operation }: (typeof operations)[number]) => (operation.security ?? document.security) as Record<string, string[]>[];
const needs = (op: (typeof operations)[number], scheme: string) => requirements(op).some((requirement) => scheme in requirement);

function isProblem(t: Test, reply: Reply, what: string): void {
  if (reply.status >= 400) t.match(reply.headers['content-type'], /^application\/problem\+json/, `${what}: ${reply.status} is problem JSON`);
}

t.test('every operation declares its errors as problem JSON and its success with a body', async (t) => {
  t.ok(operations.length > toolOperations, `${operations.length} operations, ${toolOperations} of them tool calls`);
  for (const { path, method, operation } of operations) {
    const errors = Object.entries(operation.responses).filter(([status]) => /^[45]/.test(status) && status !== '429');
    const generic = errors.map(([status]) => status).filter((status) => /XX$/.test(status));
    t.same(generic.sort(), ['4XX', '5XX'], `${method} ${path}: 4XX and 5XX`);
    const tool = toolOf(path);
    const explicit = errors.map(([status]) => status).filter((status) => !/XX$/.test(status));
    const declared = [...new Set(tool?.errors.flatMap((entry) => statusesOf(entry).map(String)) ?? [])];
    t.same(explicit.sort(), declared.sort(), `${method} ${path}: a response per status of the codes its tool declares`);
    for (const [status, response] of errors) t.ok(response.content?.['application/problem+json'], `${method} ${path} ${status}: problem JSON`);
    const success = Object.entries(operation.responses).filter(([status]) => /^2/.test(status));
    t.equal(success.length, 1, `${method} ${path}: one success response`);
    const [status, response] = success[0]!;
    if (status !== '204') t.ok(Object.keys(response.content ?? {}).length > 0, `${method} ${path}: ${status} has a body`);
  }
});

t.test('the security each operation declares is what the server enforces', async (t) => {
  const server = await startServer(t, { access: { adminToken: 'admin-secret', apiToken: 'api-secret' } });
  for (const op of operations) {
    const what = `${op.method} ${op.path}`;
    const open = requirements(op).length === 0;
    const anonymous = await call(server, op, {});
    t.equal(anonymous.status === 401, !open, `${what} without a token: ${open ? 'open' : '401'}`);
    isProblem(t, anonymous, what);
    const withApiToken = await call(server, op, { authorization: 'Bearer api-secret' });
    t.equal(withApiToken.status === 401, needs(op, 'adminToken'), `${what} with API_TOKEN: ${needs(op, 'adminToken') ? '401 (admin)' : 'allowed'}`);
    t.ok(open || needs(op, 'apiToken') || needs(op, 'adminToken'), `${what} names the token it takes`);
    isProblem(t, withApiToken, what);
  }
});

t.test('the operations that declare X-Session-Id read it; the others ignore it', async (t) => {
  const server = await startServer(t);
  const header = { $ref: '#/components/parameters/X-Session-Id' };
  let declaring = 0;
  for (const op of operations) {
    const declares = (op.operation.parameters ?? []).some((parameter) => parameter.$ref === header.$ref);
    declaring += declares ? 1 : 0;
    const reply = await call(server, op, { 'x-session-id': 'not a session id' });
    t.equal(reply.body?.code === 'invalid_session_id', declares, `${op.method} ${op.path}: ${declares ? 'reads' : 'ignores'} X-Session-Id`);
    isProblem(t, reply, `${op.method} ${op.path}`);
  }
  t.ok(declaring > toolOperations, `tool calls and listings declare it (${declaring})`);
});
