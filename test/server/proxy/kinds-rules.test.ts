import t from 'tap';
import type { Obj } from '../../helpers/hazards.js';
import { startProxied } from '../../helpers/proxy.js';
import { answer, eventsOf, failed, journalOf, LIMIT_MESSAGE, NO_SLEEP, onTool, repeat, RULES } from '../../helpers/proxy-kinds.js';
import type { Reply } from '../../helpers/server.js';

// The kinds a proxy's config declares as rules (adhoc_rule, feature_limit, conflict), and the generic kinds
// on an upstream without an OpenAPI document (operations named by method and path pattern, or declared).

t.test('adhoc_rule: ids without the c_ prefix; c_003 gets a 422, 003 gets the contact', async (t) => {
  const p = await startProxied(t, { rules: RULES, ...NO_SLEEP });
  const session = await p.server.newSession({ id: 'rule', ...onTool('get_contact', 'adhoc_rule') });
  const refused = await p.proxy('GET', '/contacts/c_003', undefined, { session });
  t.equal(refused.status, 422);
  t.match(refused.headers['content-type'], /application\/problem\+json/);
  t.match(refused.body, { code: 'invalid_format', detail: "id: three digits, without the 'c_' prefix", field: 'id' });
  const accepted = await p.proxy('GET', '/contacts/003', undefined, { session });
  t.same(answer(accepted), answer(await p.crm.request('GET', '/contacts/c_003')), "003 gets c_003: the rule's rewrite is what the CRM receives");

  const document = (await p.server.request('GET', `/s/${session}/proxy/crm/openapi.json`)).body as Obj;
  t.match(
    document['paths']['/contacts/{id}']['get']['description'],
    /Note: Contact ids are sent without the c_ prefix \(003 for c_003\)\./,
    'the served document states the rule',
  );
  const plain = (await p.server.request('GET', '/proxy/crm/openapi.json')).body as Obj;
  t.notMatch(plain['paths']['/contacts/{id}']['get']['description'] ?? '', /c_ prefix/, 'a session without it: not');

  const journal = await journalOf(p.server, session);
  t.match(journal[0], { tool: 'get_contact', status: 422, hazards: [{ kind: 'adhoc_rule', param: 'id', value: 'c_003' }] });
  t.equal(journal[0]!.proxy.upstream_status, undefined, 'the refused call never reaches the CRM');
  t.match(journal[1], { tool: 'get_contact', status: 200, args: { id: '003' }, hazards: [], proxy: { path: '/contacts/003', upstream_status: 200 } });
  t.equal((await p.proxy('GET', '/contacts/c_003')).status, 200, 'outside the session, no rule');
});

t.test('feature_limit: limit above 20 gets a 422 with the message; limit=20 works', async (t) => {
  const p = await startProxied(t, { rules: RULES, ...NO_SLEEP });
  const session = await p.server.newSession({ id: 'plan', ...onTool('list_contacts', 'feature_limit') });
  for (const limit of [21, 50, 100]) {
    const reply = await p.proxy('GET', `/contacts?limit=${limit}`, undefined, { session });
    t.equal(reply.status, 422, `limit=${limit}: 422`);
    t.match(reply.body, { code: 'feature_limited', detail: LIMIT_MESSAGE });
  }
  for (const path of ['/contacts?limit=20', '/contacts?limit=5&q=acme', '/contacts']) {
    t.same(
      answer(await p.proxy('GET', path, undefined, { session })),
      answer(await p.crm.request('GET', path)),
      `${path}: within the limit, the direct answer`,
    );
  }
  const journal = await journalOf(p.server, session);
  t.same(
    journal.map((e) => [e.status, e.hazards.map((h) => h.kind), e.proxy.upstream_status ?? null]),
    [
      [422, ['feature_limit'], null],
      [422, ['feature_limit'], null],
      [422, ['feature_limit'], null],
      [200, [], 200],
      [200, [], 200],
      [200, [], 200],
    ],
  );
  t.match(journal[0]!.hazards[0], { reason: /at most 20 contacts a page/ });
});

t.test('conflict: one deal’s amount differs from the direct answer; the event names field and authority', async (t) => {
  const p = await startProxied(t, { rules: RULES, ...NO_SLEEP });
  const session = await p.server.newSession({ id: 'two-sources', ...onTool('list_deals', 'conflict') });
  const direct = (await p.crm.request('GET', '/deals')).body as Obj[];
  const shown: Obj[][] = [];
  for (let i = 0; i < 3; i++) shown.push((await p.proxy('GET', '/deals', undefined, { session })).body as Obj[]);
  const differ = shown[0]!.flatMap((deal, i) => (JSON.stringify(deal) === JSON.stringify(direct[i]) ? [] : [i]));
  t.equal(differ.length, 1, 'one deal differs');
  const i = differ[0]!;
  t.same({ ...shown[0]![i], amount: direct[i]!['amount'] }, direct[i], 'in its amount only');
  const ratio = shown[0]![i]!['amount'] / direct[i]!['amount'];
  t.ok(ratio >= 1.1 && ratio <= 1.3, `off by 10-30 % (${ratio.toFixed(3)})`);
  t.same(shown[1], shown[0], 'the same deal and value on every call of the session');
  const events = await eventsOf(p.server, session);
  t.equal(events.length, 3);
  t.match(events[0], { kind: 'conflict', tool: 'list_deals', field: 'amount', authority: 'close_deal', shown: shown[0]![i]!['amount'] });

  // The authority says otherwise: closing the deal answers its real amount.
  t.equal(direct[i]!['stage'], 'open', `${direct[i]!['id']} is open`);
  const closed = (await p.proxy('POST', `/deals/${direct[i]!['id']}/close`, { outcome: 'won' }, { session })) as Reply<Obj>;
  t.equal(closed.status, 200);
  t.equal(closed.body['amount'], direct[i]!['amount'], 'close_deal (the authority) answers the real amount');
});

t.test('without an OpenAPI document: operations by method and path pattern, kinds by session', async (t) => {
  await t.rejects(
    startProxied(t, { document: false, hazardEnv: { HAZARD__TRANSIENT_FAILURE__CRM__GET_CONTACTS_ID: 'on' } }),
    /HAZARD__TRANSIENT_FAILURE__CRM__GET_CONTACTS_ID: unknown tool/,
    'a pattern operation cannot be named at startup: it is unknown until seen',
  );

  const p = await startProxied(t, { document: false, ...NO_SLEEP });
  const unseen = await p.server.request('POST', '/sessions', { id: 'early', hazards: { tools: { crm__get_contacts_id: { transient_failure: 'on' } } } });
  t.equal(unseen.status, 400, 'nor in a session before it is seen');
  t.match(unseen.body, { detail: /unknown tool 'crm__get_contacts_id'/ });

  const session = await p.server.newSession({ id: 'undocumented', hazards: { kinds: { transient_failure: 'on', spec_drift: 'on' } } });
  const replies = await repeat(p, 3, '/contacts/c_003', session);
  t.same(replies.map(failed), [true, true, false], 'kinds.transient_failure applies to the operation from its first call');
  t.same(answer(replies[2]!), answer(await p.crm.request('GET', '/contacts/c_003')));
  const journal = await journalOf(p.server, session);
  t.same(
    journal.map((e) => [e.domain, e.tool, e.hazards.map((h) => `${h.kind} ${h.tool}`)]),
    [
      ['crm', 'get_contacts_id', ['transient_failure get_contacts_id']],
      ['crm', 'get_contacts_id', ['transient_failure get_contacts_id']],
      ['crm', 'get_contacts_id', []],
    ],
    'named by method and path pattern',
  );

  // Seen once, the operation can be named.
  const named = await p.server.newSession({ id: 'named', ...onTool('get_contacts_id', 'transient_failure') });
  t.ok(failed(await p.proxy('GET', '/contacts/c_010', undefined, { session: named })), 'crm__get_contacts_id, once seen');

  // spec_drift needs a document's parameters: without one it is absent.
  const drifting = await p.server.newSession({ id: 'no-drift', hazards: { kinds: { spec_drift: 'on' } } });
  const direct = await p.crm.request('GET', '/contacts?limit=5');
  for (let i = 0; i < 3; i++)
    t.same(
      answer(await p.proxy('GET', '/contacts?limit=5', undefined, { session: drifting })),
      answer(direct),
      `call ${i + 1}: the old parameter name keeps working`,
    );
  t.same(await eventsOf(p.server, drifting), [], 'no spec_drift event');
  const refused = await p.server.request('POST', '/sessions', { hazards: { tools: { crm__get_contacts: { spec_drift: 'on' } } } });
  t.equal(refused.status, 400);
  t.match(refused.body, { detail: /tool 'crm__get_contacts' has no spec_drift scenario/ });
});

t.test('without a document, declared operations are named at startup', async (t) => {
  const p = await startProxied(t, {
    document: false,
    operations: { get_contact: 'GET /contacts/{id}' },
    hazardEnv: { HAZARD__TRANSIENT_FAILURE__CRM__GET_CONTACT: 'on' },
  });
  const replies = await repeat(p, 3, '/contacts/c_003', 'flagged');
  t.same(replies.map(failed), [true, true, false], 'HAZARD__TRANSIENT_FAILURE__CRM__GET_CONTACT=on');
  t.same(answer(replies[2]!), answer(await p.crm.request('GET', '/contacts/c_003')));
  t.equal((await p.proxy('GET', '/contacts?limit=2', undefined, { session: 'flagged' })).status, 200, 'an operation not declared is not hit');
  t.same(
    (await journalOf(p.server, 'flagged')).map((e) => [e.tool, e.hazards.map((h) => h.kind)]),
    [
      ['get_contact', ['transient_failure']],
      ['get_contact', ['transient_failure']],
      ['get_contact', []],
      ['get_contacts', []],
    ],
    'the declared name, and the pattern name for the rest',
  );
});
