import t from 'tap';
import { startServer } from '../helpers/server.js';
import { findOrder } from '../helpers/retail.js';
import { GROUPS, KINDS } from '../../hazards/catalog.js';
import { domains } from '../../domains/index.js';

const order = findOrder((o) => o.status === 'pending');

t.test('GET /hazards: the catalog and the effective matrix with sources', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARD__OUTAGE__TRACK_ORDER: 'on', HAZARD_SEED: '5' } });
  const report = (await server.request('GET', '/hazards')).body;
  t.equal(report.kinds.length, KINDS.length);
  t.match(
    report.kinds.find((k: { kind: string }) => k.kind === 'outage'),
    { family: 'execution', scope: 'session', retryable: false, sees: String, recovery: String },
  );
  t.match(report, { session: 'default', seed: '5', settings: { hints: false, max_consecutive: 2, latency_ms: 1500 } });
  t.match(
    report.matrix.find((c: { tool: string; kind: string }) => c.tool === 'track_order' && c.kind === 'outage'),
    { probability: 1, source: 'HAZARD__OUTAGE__TRACK_ORDER', assigned: true, domain: 'retail', family: 'execution' },
  );
  const active = (await server.request('GET', '/hazards?active=true')).body.matrix;
  t.same(
    active.map((c: { tool: string; kind: string }) => `${c.tool}/${c.kind}`),
    ['track_order/outage'],
  );
  for (const word of ['1', 'true']) t.same((await server.request('GET', `/hazards?active=${word}`)).body.matrix, active, `active=${word}`);
  for (const word of ['0', 'false'])
    t.ok((await server.request('GET', `/hazards?active=${word}`)).body.matrix.length > active.length, `active=${word}: every cell`);
  t.match(await server.request('GET', '/hazards?active=yes'), { status: 400, body: { detail: /active/ } }, 'another word is refused, naming the parameter');
  t.equal((await server.request('GET', '/hazards?session=nobody')).status, 404);
});

t.test('PUT /admin/hazards changes the schedule at runtime; DELETE clears it', async (t) => {
  const server = await startServer(t);
  t.equal((await server.call('retail', 'get_order_details', { order_id: order.order_id })).status, 200);
  const put = await server.request('PUT', '/admin/hazards', { tools: { get_order_details: { outage: 'on' } } });
  t.equal(put.status, 400, 'no outage scenario for get_order_details');
  t.match(put.body, { code: 'invalid_hazard_settings', detail: /tools\.get_order_details\.outage: tool 'get_order_details' has no outage scenario/ });

  const on = await server.request('PUT', '/admin/hazards', { tools: { get_order_details: { transient_failure: 'on' } }, max_consecutive: 1 });
  t.equal(on.status, 200);
  t.match(on.body.matrix, [
    { tool: 'get_order_details', kind: 'transient_failure', probability: 1, source: 'PUT /admin/hazards tools.get_order_details.transient_failure' },
  ]);
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push((await server.call('retail', 'get_order_details', { order_id: order.order_id })).status >= 429);
  t.same(statuses, [true, false, true, false], 'p=1 with max_consecutive 1: every other call fails');
  t.equal((await server.request('DELETE', '/admin/hazards')).status, 200);
  t.equal((await server.call('retail', 'get_order_details', { order_id: order.order_id })).status, 200);
  t.equal(
    (await server.request('PUT', '/admin/hazards', { enable: ['gremlins'] })).body.detail,
    `PUT /admin/hazards: enable: unknown hazard kind or group 'gremlins' (known: ${[...GROUPS.keys(), ...KINDS].join(', ')})`,
  );
  t.equal((await server.request('PUT', '/admin/hazards', { rate: 2 })).status, 400);
});

t.test('a session brings its own hazards and seed; other sessions are untouched', async (t) => {
  const server = await startServer(t);
  const bad = await server.request('POST', '/sessions', { id: 'bad', hazards: { kinds: { outage: 'maybe' } } });
  t.equal(bad.status, 400);
  t.equal((await server.request('GET', '/sessions/bad')).status, 404, 'no session is created on error');
  await server.newSession({ id: 'down', seed: 3, hazards: { tools: { track_order: { outage: 'on' } } } });
  const down = await server.call('retail', 'track_order', { order_id: order.order_id }, 'down');
  t.equal(down.status, 503);
  t.equal((await server.call('retail', 'track_order', { order_id: order.order_id }, 'other')).status, 200);
  const report = (await server.request('GET', '/hazards?session=down&active=true')).body;
  t.match(report, { session: 'down', seed: '3', matrix: [{ tool: 'track_order', kind: 'outage', source: 'session down tools.track_order.outage' }] });
});

t.test('an inherited name in runtime or session settings is a 400 and changes nothing', async (t) => {
  const server = await startServer(t);
  for (const word of ['constructor', 'toString', 'hasOwnProperty']) {
    const put = await server.request('PUT', '/admin/hazards', { enable: [word] });
    t.equal(put.status, 400, `PUT enable ${word}`);
    t.match(put.body.detail, `unknown hazard kind or group '${word}'`);
    const session = await server.request('POST', '/sessions', { hazards: { enable: [word] } });
    t.equal(session.status, 400, `a session's enable ${word}`);
  }
  t.equal((await server.call('retail', 'get_order_details', { order_id: order.order_id })).status, 200, 'calls still work in default');
  t.equal((await server.call('retail', 'get_order_details', { order_id: order.order_id }, 'another')).status, 200, 'and in every other session');
  t.same((await server.request('GET', '/hazards?active=true')).body.matrix, [], 'no setting was stored');
});

t.test('GET /hazards: each cell states the condition of its scenario, when it bites only some calls', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARD__FEATURE_LIMIT__TRACK_ORDER: 'on' } });
  const { matrix } = (await server.request('GET', '/hazards')).body as { matrix: { domain: string; tool: string; kind: string; condition?: string }[] };
  const scenarios = domains.flatMap((domain) => (domain.hazards ?? []).map((scenario) => ({ domain: domain.name, scenario })));
  const conditioned = scenarios.filter(({ scenario }) => scenario.condition !== undefined);
  t.ok(conditioned.length > 0, 'some scenarios declare a condition');
  for (const { domain, scenario } of scenarios) {
    const cell = matrix.find((c) => c.domain === domain && c.tool === scenario.tool && c.kind === scenario.kind);
    t.equal(cell?.condition, scenario.condition, `${domain}/${scenario.tool}/${scenario.kind}: ${scenario.condition ?? 'no condition'}`);
  }
  const ups = matrix.find((c) => c.tool === 'track_order' && c.kind === 'feature_limit');
  t.match(ups?.condition, /UPS/, 'feature_limit on track_order: UPS orders only');
});
