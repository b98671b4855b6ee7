import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import t, { type Test } from 'tap';
import { parse } from 'yaml';
import { type HttpUpstream, loadProxyConfig } from '../../server/proxy/config.js';
import { buildUpstream } from '../../server/proxy/proxies.js';
import { startServer } from '../helpers/server.js';
import { repositoryRoot } from '../tiers.js';

// examples/helpdesk: an OpenAPI document with no server, served by mock mode from mock.yaml. The document is valid
// and names every operation; the mock keeps a session's tickets as its README says, x-wildtools operations included.

const here = (name: string) => `${repositoryRoot}examples/helpdesk/${name}`;
const document = parse(readFileSync(here('openapi.yaml'), 'utf8')) as { openapi: string; paths: Record<string, Record<string, { operationId?: string }>> };
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

t.test('openapi.yaml is valid OpenAPI 3.1, with a snake_case operationId on every operation', async (t) => {
  const result = await new Validator().validate(document);
  t.ok(result.valid, 'valid', { errors: result.errors });
  t.equal(document.openapi, '3.1.0');
  const ids = Object.values(document.paths).flatMap((item) => METHODS.flatMap((method) => (item[method] ? [item[method].operationId] : [])));
  t.equal(ids.length, 10, 'ten operations');
  for (const id of ids) t.match(id, /^[a-z]+(_[a-z]+)*$/, `${id}: snake_case`);
});

/** wildtools serving mock.yaml's upstream, its paths read from the repository root. */
async function helpdesk(t: Test) {
  const desk = loadProxyConfig(here('mock.yaml'))['desk'] as HttpUpstream;
  t.ok(desk.upstream === undefined && desk.replay === undefined, 'mock.yaml declares a mock: no upstream, no replay');
  const config: HttpUpstream = { ...desk, openapi: `${repositoryRoot}${desk.openapi}`, mock: { seed_file: `${repositoryRoot}${desk.mock?.seed_file}` } };
  return startServer(t, { proxies: [await buildUpstream('desk', config, 'test')] });
}

t.test("a session's tickets: created, escalated, commented, read back, deleted; another session sees none", async (t) => {
  const server = await helpdesk(t);
  const desk = (path: string, session = 'walk') => `/s/${session}/proxy/desk${path}`;
  const created = await server.request('POST', desk('/tickets'), { subject: 'Cannot reset my password', requester_email: 'jo.park@example.com' });
  t.equal(created.status, 201);
  t.match(
    created.body,
    { id: 'ticket_4', status: 'open', priority: 'normal', assignee_id: null, tags: [] },
    "the next id, the schemas' examples for what was left out",
  );
  const escalated = await server.request('POST', desk('/tickets/ticket_4/escalate'), { priority: 'urgent', assignee_id: 'agent_2' });
  t.match(escalated.body, { id: 'ticket_4', priority: 'urgent', assignee_id: 'agent_2' }, 'escalate (x-wildtools: update) answers the ticket changed');
  t.match((await server.request('GET', desk('/tickets/ticket_4'))).body, { priority: 'urgent', assignee_id: 'agent_2', status: 'open' }, 'and keeps it');
  const comment = await server.request('POST', desk('/tickets/ticket_4/comments'), { body: 'Sent a new link.', author: 'ravi.iyer@helpdesk.example.com' });
  t.equal(comment.status, 201);
  t.match(comment.body, { id: 'comment_2', ticket_id: 'ticket_4' }, 'add_comment (a POST below a record that lists) keeps the comment on its ticket');
  const commentsOf = async (ticket: string) =>
    ((await server.request('GET', desk(`/tickets/${ticket}/comments`))).body.data as { id: string }[]).map((item) => item.id);
  t.same(await commentsOf('ticket_4'), ['comment_2'], "a ticket's comments: its own");
  t.same(await commentsOf('ticket_2'), ['comment_1'], "another's: the seeded one");
  t.match((await server.request('GET', desk('/tickets/ticket_9/comments'))).body, { status: 404, field: 'ticket_id' }, 'no ticket, no comments');
  const page = await server.request('GET', desk('/tickets?limit=10'));
  t.same(
    page.body.data.map((ticket: { id: string }) => ticket.id),
    ['ticket_1', 'ticket_2', 'ticket_3', 'ticket_4'],
  );
  t.match(page.body, { has_more: false, next_cursor: null });
  const open = await server.request('GET', desk('/tickets?status=open'));
  t.same(
    open.body.data.map((ticket: { id: string }) => ticket.id),
    ['ticket_1', 'ticket_4'],
    'a query parameter named like a member filters the list',
  );
  t.match(created.body, { created_at: created.body.updated_at }, 'a new ticket: both timestamps from the session clock');
  t.ok(Date.parse(escalated.body.updated_at) > Date.parse(created.body.updated_at), 'a change moves updated_at on');
  t.equal((await server.request('GET', desk('/tickets/ticket_4', 'other'))).status, 404, 'another session has only the seed');
  const agents = await server.request('GET', desk('/agents'));
  t.equal(agents.body.data.length, 2);
  t.notOk(
    agents.body.data.some((agent: object) => 'password' in agent),
    'a writeOnly member is never shown',
  );
  t.equal((await server.request('DELETE', desk('/tickets/ticket_4'))).status, 204);
  const gone = await server.request('GET', desk('/tickets/ticket_4'));
  t.match(gone.body, { status: 404, code: 'not_found', field: 'ticket_id' }, 'deleted: a 404 naming the parameter');
  const refused = await server.request('POST', desk('/tickets'), { subject: 'Refund', requester_email: 'jo.park', priority: 'asap' });
  t.match(refused.body, { status: 400, code: 'invalid_input', field: 'requester_email' });
  t.same(
    refused.body.errors.map((error: { field: string }) => error.field),
    ['requester_email', 'priority'],
  );
});
