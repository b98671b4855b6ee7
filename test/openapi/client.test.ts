import { readFileSync } from 'node:fs';
import createClient from 'openapi-fetch';
import t from 'tap';
import { findOrder, retailFixture } from '../helpers/retail.js';
import { startServer } from '../helpers/server.js';
import { CLIENT_DOCUMENTS, clientTypesFile, renderClientTypes } from './client-types.js';
import type { components, paths } from './types/openapi.js';
import type { paths as RetailPaths } from './types/retail.js';

// A client generated from the documents (openapi-typescript types, openapi-fetch) calls the server:
// what the documents declare is what the server answers. `tsc --noEmit` checks the typed half.

/** True when A and B are the same type: the compile-time checks below fail on `undefined` bodies. */
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Databases = Record<string, Record<string, Record<string, unknown>>>;
type Problem = components['schemas']['Problem'];

t.test('the committed client types are generated from the committed documents (npm run openapi)', async (t) => {
  const files = await renderClientTypes();
  t.same([...files.keys()], [...CLIENT_DOCUMENTS]);
  for (const [name, text] of files) t.equal(readFileSync(clientTypesFile(name), 'utf8'), text, `types/${name}.ts is fresh`);
});

t.test('a typed client works a session end to end', async (t) => {
  const server = await startServer(t);
  const client = createClient<paths>({ baseUrl: server.origin });

  const created = await client.POST('/sessions', { body: { id: 'typed-client', seed: 7 } });
  t.equal(created.response.status, 201, 'POST /sessions answers 201');
  const id = created.data!.id;
  t.equal(id, 'typed-client');
  const inSession = createClient<paths>({ baseUrl: `${server.origin}/s/${id}` });

  // A read, through the X-Session-Id header.
  const [user] = Object.values(retailFixture().users);
  const found = await client.POST('/tools/find_user_id_by_email', { params: { header: { 'X-Session-Id': id } }, body: { email: user!.email } });
  t.equal(found.data, user!.user_id, 'a read tool answers its typed result');

  // A write, through the session server /s/{session}.
  const pending = findOrder((order) => order.status === 'pending');
  const cancelled = await inSession.POST('/tools/cancel_pending_order', { body: { order_id: pending.order_id, reason: 'no longer needed' } });
  t.equal(cancelled.data?.status, 'cancelled', 'a write tool answers the changed order');

  const state = (await client.GET('/sessions/{id}/state', { params: { path: { id } } })).data;
  const stateIsTyped: Equals<typeof state, Databases | undefined> = true;
  t.ok(stateIsTyped);
  t.match(state?.['retail']?.['orders']?.[pending.order_id], { status: 'cancelled' }, 'the state is keyed by domain, then table, then id');
  t.match(state?.['airline'], { reservations: Object }, 'every domain is there');

  // The body's type depends on the format asked for: an array (json) or text (jsonl).
  const journal = (await client.GET('/sessions/{id}/journal', { params: { path: { id } } })).data;
  if (!Array.isArray(journal)) throw new Error(`the journal is not an array: ${journal}`);
  t.same(
    journal.map((entry) => [entry.tool, entry.status, entry.changes.some((change) => change.table === 'orders' && change.id === pending.order_id)]),
    [
      ['find_user_id_by_email', 200, false],
      ['cancel_pending_order', 200, true],
    ],
    'the journal has both calls, the write with its change to the order',
  );
  const lines = await client.GET('/sessions/{id}/journal', { params: { path: { id }, query: { format: 'jsonl' } }, parseAs: 'text' });
  t.match(lines.response.headers.get('content-type'), /^application\/x-ndjson/);
  t.equal(lines.data?.trim().split('\n').length, 2, 'jsonl: one line per entry');

  const diff = (await client.GET('/sessions/{id}/diff', { params: { path: { id } } })).data;
  t.match(diff?.['retail'], [{ table: 'orders', id: pending.order_id, op: 'update', fields: Array }], 'the diff names the changed order');

  const retail = createClient<RetailPaths>({ baseUrl: server.origin });
  const policy = await retail.GET('/retail/policy', { parseAs: 'text' });
  t.match(policy.response.headers.get('content-type'), /^text\/markdown/, 'the policy is markdown, as declared');
  t.match(policy.data, /cancel/i);
});

t.test('bad input gets a typed problem, in application/problem+json', async (t) => {
  const server = await startServer(t);
  const client = createClient<paths>({ baseUrl: server.origin });
  const pending = findOrder((order) => order.status === 'pending');

  // The typed client would refuse this body; the server must too, naming the field.
  const wrongType = await client.POST('/tools/cancel_pending_order', { body: { order_id: 42, reason: 'no longer needed' } as never });
  t.equal(wrongType.response.status, 400);
  t.match(wrongType.response.headers.get('content-type'), /^application\/problem\+json/);
  // A tool call's error may also be another server's body under an execution hazard: the type says so.
  t.match(wrongType.error, { status: 400, code: 'invalid_input', errors: [{ field: 'order_id' }] });

  const brokenRule = await client.POST('/tools/cancel_pending_order', { body: { order_id: pending.order_id, reason: 'too slow' } });
  t.equal(brokenRule.response.status, 422);
  t.match(brokenRule.response.headers.get('content-type'), /^application\/problem\+json/);
  t.match(brokenRule.error, { code: 'invalid_reason', detail: String });
  t.equal(brokenRule.data, undefined, 'a problem is no result');

  const unknownSession = await client.GET('/sessions/{id}/state', { params: { path: { id: 'never-created' } } });
  t.equal(unknownSession.response.status, 404);
  t.match(unknownSession.response.headers.get('content-type'), /^application\/problem\+json/);
  const problem: Problem | undefined = unknownSession.error;
  t.match(problem, { status: 404, detail: /never-created/ }, 'the other routes answer nothing but problems');
});
