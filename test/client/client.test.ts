import t from 'tap';
import { ProblemError, UnexpectedResponseError, WildtoolsClient } from '../../client/index.js';
import { domains } from '../../domains/index.js';
import { startServer } from '../helpers/server.js';
import { ORDER as TASK_ORDER, SEED } from '../helpers/openenv.js';

// The client against a listening server: every method, a typed call in every domain, and errors.
// The `@ts-expect-error` lines are the type-level test: `tsc --noEmit` fails if a wrong argument type,
// a missing argument or a misspelt tool becomes acceptable.

const ORDER = '#W5124601';

async function clientOf(
  t: Parameters<typeof startServer>[0],
  options: Partial<ConstructorParameters<typeof WildtoolsClient>[0]> = {},
  server?: { origin: string },
) {
  const origin = server?.origin ?? (await startServer(t)).origin;
  const client = new WildtoolsClient({ baseUrl: `${origin}/`, ...options });
  t.teardown(() => client.close());
  return client;
}

t.test('a typed call in every domain, by method and by name', async (t) => {
  const client = await clientOf(t);
  const userId: string = await client.retail.find_user_id_by_email({ email: 'malik.okonkwo3001@example.com' });
  t.equal(userId, 'malik_okonkwo_2039');
  const order = await client.call('retail', 'get_order_details', { order_id: ORDER });
  t.equal(order.order_id, ORDER);
  t.equal(order.address.city.length > 0, true, 'nested fields are typed and present');

  const airports = await client.airline.list_all_airports();
  t.ok(airports.length > 10 && airports.every((airport) => /^[A-Z]{3}$/.test(airport.iata)), 'a tool without required arguments takes none');
  const reservation = await client.airline.get_reservation_details({ reservation_id: 'S0Q246' });
  t.equal(reservation.reservation_id, 'S0Q246');

  const inventory = await client.smartHome.get_user_inventory({ user_id: 'ezra_li_4771' });
  t.equal(inventory.user.user_id, 'ezra_li_4771');

  const places = await client.weather.geocode_location({ query: 'Paris' });
  t.ok(places.matches.length > 0, 'weather answers');

  // @ts-expect-error order_id is a string
  await t.rejects(client.retail.get_order_details({ order_id: 5124601 }), ProblemError, 'the server refuses what the types refuse');
  // @ts-expect-error order_id is required
  await t.rejects(client.call('retail', 'get_order_details', {}), ProblemError);
  // @ts-expect-error no such tool in the domain
  t.equal(client.airline.get_order_details, undefined, 'a domain has only its own tools');
  // @ts-expect-error no such parameter
  await t.rejects(client.weather.geocode_location({ query: 'Paris', planet: 'Mars' }), ProblemError);
});

t.test('a problem answer becomes a ProblemError with status, code, detail and field', async (t) => {
  const client = await clientOf(t);
  const refused = await client.retail.cancel_pending_order({ order_id: ORDER, reason: 'too slow' as 'no longer needed' }).catch((error: unknown) => error);
  t.ok(refused instanceof ProblemError);
  const problem = refused as ProblemError;
  t.equal(problem.status, 422);
  t.equal(problem.code, 'invalid_reason');
  t.equal(problem.detail, 'Invalid reason');
  t.equal(problem.request, '/retail/tools/cancel_pending_order'.replace(/^/, 'POST '));
  t.match(problem.message, /422 invalid_reason: Invalid reason/);

  const invalid = (await client.retail.get_order_details({ order_id: 7 as unknown as string }).catch((error: unknown) => error)) as ProblemError;
  t.equal(invalid.status, 400);
  t.equal(invalid.field, 'order_id', 'the offending field is named');
});

t.test('sessions: create, target by path or header, journal, state, diff, reset, delete', async (t) => {
  const server = await startServer(t);
  const client = await clientOf(t, {}, server);
  const created = await client.sessions.create({ id: 'run-1', seed: 42, clock: { start: '2024-01-15T12:00:00Z' } });
  t.equal(created.id, 'run-1');
  t.equal(created.seed, 42, 'the seed as given');
  t.equal(
    (await client.sessions.list()).some((session) => session.id === 'run-1'),
    true,
  );

  const inSession = client.withSession('run-1');
  t.equal(inSession.session, 'run-1');
  const cancelled = await inSession.retail.cancel_pending_order({ order_id: ORDER, reason: 'no longer needed' });
  t.equal(cancelled.status, 'cancelled');
  const byHeader = new WildtoolsClient({ baseUrl: server.origin, session: 'run-1', sessionVia: 'header' });
  t.teardown(() => byHeader.close());
  t.equal((await byHeader.retail.get_order_details({ order_id: ORDER })).status, 'cancelled', 'the header names the session too');
  t.equal((await client.retail.get_order_details({ order_id: ORDER })).status, 'pending', 'the default session is untouched');

  const journal = await inSession.sessions.journal();
  t.same(
    journal.map((entry) => [entry.seq, entry.tool, entry.status]),
    [
      [1, 'cancel_pending_order', 200],
      [2, 'get_order_details', 200],
    ],
  );
  t.same(await client.sessions.journal('run-1', 1).then((entries) => entries.map((entry) => entry.seq)), [2], 'since');
  t.equal(((await inSession.sessions.state())['retail']!['orders']![ORDER] as { status: string }).status, 'cancelled');
  const diff = await client.sessions.diff('run-1');
  t.same(
    diff['retail']!.map((change) => [change.table, change.id, change.op]),
    [['orders', ORDER, 'update']],
  );
  t.equal((await client.sessions.get('run-1')).calls, 2);

  t.equal((await inSession.sessions.reset()).calls, 0, 'reset');
  t.equal((await client.sessions.journal('run-1')).length, 0);
  t.equal(await client.sessions.delete('run-1'), undefined, 'delete answers nothing');
  const gone = await client.sessions.get('run-1').catch((error: unknown) => error);
  t.ok(gone instanceof ProblemError && gone.status === 404, 'a deleted session is not found');
});

t.test('listings, policy, OpenAPI, domains, health', async (t) => {
  const client = await clientOf(t);
  t.equal((await client.health()).status, 'ok');
  t.same(
    (await client.domains()).map((domain) => domain.name),
    domains.map((domain) => domain.name),
  );
  const listing = (await client.listTools('retail', 'openai')) as { function: { name: string } }[];
  t.ok(listing.some((tool) => tool.function.name === 'get_order_details'));
  const strict = (await client.listTools('retail', 'openai-responses', { strict: true })) as { name: string; strict: boolean }[];
  t.ok(strict.length > 0 && strict.every((tool) => tool.strict === true), 'strict Responses API tools');
  const combined = (await client.listTools()) as { tools: unknown[] };
  t.ok(combined.tools.length >= 80, 'every domain without one');
  t.match(await client.policy('retail'), /#/, 'markdown');
  t.equal((await client.openapi('weather'))['openapi'], '3.1.0');
  t.ok('paths' in (await client.openapi()));
});

t.test('hazard settings: get, set and clear with the admin token', async (t) => {
  const adminToken = 'admin-token-0123456789';
  const apiToken = 'api-token-0123456789ab';
  const server = await startServer(t, { access: { adminToken, apiToken } });
  const anonymous = await clientOf(t, {}, server);
  const refused = (await anonymous.domains().catch((error: unknown) => error)) as ProblemError;
  t.equal(refused.status, 401, 'the API token is required');

  const user = await clientOf(t, { apiToken }, server);
  t.equal((await user.domains()).length, domains.length, 'the API token is sent as a bearer token');
  const forbidden = (await user.hazards.set({ kinds: { outage: 'on' } }).catch((error: unknown) => error)) as ProblemError;
  t.ok(forbidden instanceof ProblemError && forbidden.status >= 401, 'admin routes need the admin token');

  const admin = await clientOf(t, { apiToken, adminToken }, server);
  const set = await admin.hazards.set({ tools: { get_order_details: { transient_failure: 'on' } } });
  t.same(
    set.matrix.map((cell) => [cell.tool, cell.kind, cell.probability]),
    [['get_order_details', 'transient_failure', 1]],
  );
  const active = await user.hazards.get({ active: true });
  t.equal(active.matrix.length, 1);
  t.ok((await user.hazards.get()).matrix.length > 50, 'every assigned cell without active');
  t.equal((await admin.hazards.clear()).matrix.length, 0);
  await admin.sessions.create({ id: 'own', hazards: { kinds: { outage: 'on' } } });
  t.ok((await admin.withSession('own').hazards.get({ active: true })).matrix.length > 0, "a session's own settings");
});

t.test('an injected fault that is not problem JSON becomes an UnexpectedResponseError saying what came back', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARD__TRANSIENT_FAILURE__GET_ORDER_DETAILS: 'on', HAZARD_MAX_CONSECUTIVE: '99' } });
  const client = await clientOf(t, {}, server);
  const seen = new Set<string>();
  for (let call = 0; call < 12; call++) {
    const error = await client.retail.get_order_details({ order_id: ORDER }).catch((caught: unknown) => caught);
    t.ok(error instanceof UnexpectedResponseError, 'not a result, not a problem');
    const { received } = error as UnexpectedResponseError;
    if (received.kind === 'foreign') seen.add(received.contentType.split(';')[0]!);
    t.match((error as Error).message, /^POST \/retail\/tools\/get_order_details: answered (429|5\d\d) /);
  }
  t.ok(seen.has('text/html'), 'an HTML error page is reported with its content type');
});

t.test('tasks: list and get an instance, a task session answered and scored, a stored run re-scored, a batch', async (t) => {
  const client = await clientOf(t);
  const tasks = await client.tasks.list({ domain: 'retail', kind: 'unknown_outcome' });
  t.ok(tasks.some((task) => task.id === 'retail/001' && task.source === 'template'));
  const task = await client.tasks.get('retail/001');
  t.ok(task.tools.includes('cancel_pending_order') && task.policy.length > 100);
  t.equal(task.seed, 0, 'seed 0 unless asked');
  t.not((await client.tasks.get('retail/001', 3)).request, task.request, 'another seed, another instance');

  const session = await client.sessions.create({ id: 'scored', task: 'retail/001', seed: SEED, kinds: [] });
  t.equal(session.task, 'retail/001');
  const mine = client.withSession('scored');
  const cancelled = await mine.retail.cancel_pending_order({ order_id: TASK_ORDER, reason: 'no longer needed' });
  const refunds = cancelled.payment_history
    .filter((payment) => payment.transaction_type === 'refund')
    .map(({ payment_method_id, amount }) => ({ payment_method_id, amount }));
  t.same(await mine.sessions.answer({ answer: { order_id: TASK_ORDER, refunds }, text: 'Cancelled.' }), {
    session: 'scored',
    turn: 1,
    turns: 1,
    next_request: null,
  });
  const score = await mine.sessions.score();
  t.match(score, { session: 'scored', seed: SEED, success: true, calls: 1 });
  const rescored = await client.score('retail/001', SEED, await mine.sessions.journal(), [{ text: 'It is cancelled.' }]);
  t.match(rescored, { success: false, state: { ok: true }, answer: { answered: false, rule: 'typed' } }, 'words do not answer a typed task');

  const batch = await client.batches.create({ id: 'twice', task: 'retail/001', n: 2 });
  t.same(
    batch.sessions.map((row) => [row.id, row.seed]),
    [
      ['twice.1', 1],
      ['twice.2', 2],
    ],
  );
  t.match(await client.batches.get('twice'), { scored: 0, pass_hat_k: [] });
  await t.rejects(client.tasks.get('retail/999'), ProblemError);
});
