import Fastify from 'fastify';
import t, { type Test } from 'tap';
import wildtools, { sessionPaths } from '../../server/plugin.js';

// wildtools embedded in a user's own fastify app: registered under a prefix next to the user's routes, driven
// with app.inject (no listening server).

const PREFIX = '/wt';
const ORDER = '#W5124601';

async function userApp(t: Test, options: Parameters<typeof wildtools>[1] = {}) {
  const app = Fastify({ rewriteUrl: sessionPaths(PREFIX) });
  app.get('/hello', async () => ({ hello: 'world' }));
  await app.register(wildtools, { prefix: PREFIX, ...options });
  t.teardown(() => app.close());
  return app;
}

t.test('served under the prefix next to the user route, in a session, journaled', async (t) => {
  const app = await userApp(t);
  const hello = await app.inject({ method: 'GET', url: '/hello' });
  t.same(hello.json(), { hello: 'world' }, "the user's own route answers");

  const created = await app.inject({ method: 'POST', url: `${PREFIX}/sessions`, headers: { 'content-type': 'application/json' }, payload: { id: 'run-1' } });
  t.equal(created.statusCode, 201, 'a session is created under the prefix');

  const found = await app.inject({
    method: 'POST',
    url: `${PREFIX}/s/run-1/retail/tools/find_user_id_by_email`,
    headers: { 'content-type': 'application/json' },
    payload: { email: 'malik.okonkwo3001@example.com' },
  });
  t.equal(found.statusCode, 200, 'a tool call by the session path');
  t.equal(found.json(), 'malik_okonkwo_2039');
  const details = await app.inject({
    method: 'POST',
    url: `${PREFIX}/retail/tools/get_order_details`,
    headers: { 'content-type': 'application/json', 'x-session-id': 'run-1' },
    payload: { order_id: ORDER },
  });
  t.equal(details.statusCode, 200, 'a tool call naming the session by header');

  const journal = await app.inject({ method: 'GET', url: `${PREFIX}/sessions/run-1/journal` });
  t.same(
    journal.json().map((entry: { tool: string; status: number }) => [entry.tool, entry.status]),
    [
      ['find_user_id_by_email', 200],
      ['get_order_details', 200],
    ],
    'the journal has both calls',
  );
  const outside = await app.inject({ method: 'GET', url: '/sessions/run-1/journal' });
  t.equal(outside.statusCode, 404, 'nothing is served outside the prefix');
  t.notMatch(outside.headers['content-type'], /problem/, "the user's app keeps its own 404");
  const unknown = await app.inject({
    method: 'POST',
    url: `${PREFIX}/retail/tools/get_order_detail`,
    headers: { 'content-type': 'application/json' },
    payload: {},
  });
  t.match(unknown.json(), { status: 404, code: 'unknown_tool', suggestions: ['get_order_details'] }, 'an unknown tool under the prefix is named');

  const spec = await app.inject({ method: 'GET', url: `${PREFIX}/openapi.json` });
  t.ok(Object.keys(spec.json().paths).includes(`${PREFIX}/retail/tools/get_order_details`), 'the OpenAPI document has the prefixed paths');
});

t.test('hazards given as environment flags take effect', async (t) => {
  const app = await userApp(t, { hazards: { env: { HAZARD__TRANSIENT_FAILURE__GET_ORDER_DETAILS: 'on' } } });
  const headers = { 'content-type': 'application/json', 'x-session-id': 'h' };
  const failed = await app.inject({ method: 'POST', url: `${PREFIX}/retail/tools/get_order_details`, headers, payload: { order_id: ORDER } });
  t.ok(failed.statusCode >= 500, `the switched-on tool fails transiently (${failed.statusCode})`);
  const other = await app.inject({
    method: 'POST',
    url: `${PREFIX}/retail/tools/find_user_id_by_email`,
    headers,
    payload: { email: 'malik.okonkwo3001@example.com' },
  });
  t.equal(other.statusCode, 200, 'another tool is untouched');
  const journal = (await app.inject({ method: 'GET', url: `${PREFIX}/sessions/h/journal` })).json();
  t.same(
    journal.map((entry: { tool: string; hazards: { kind: string }[] }) => [entry.tool, entry.hazards.map((event) => event.kind)]),
    [
      ['get_order_details', ['transient_failure']],
      ['find_user_id_by_email', []],
    ],
    'the journal records the hazard on its tool only',
  );
});

t.test('without hazard options no hazard is on', async (t) => {
  const app = await userApp(t);
  const reply = await app.inject({
    method: 'POST',
    url: `${PREFIX}/retail/tools/get_order_details`,
    headers: { 'content-type': 'application/json' },
    payload: { order_id: ORDER },
  });
  t.equal(reply.statusCode, 200);
});
