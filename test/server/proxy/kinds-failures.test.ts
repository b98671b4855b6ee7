import t, { type Test } from 'tap';
import type { Obj } from '../../helpers/hazards.js';
import { type Method, type Proxied, startCrm, startProxied } from '../../helpers/proxy.js';
import { answer, eventsOf, failed, hitPattern, journalOf, NEW_CONTACT, NO_SLEEP, onTool, repeat, RULES } from '../../helpers/proxy-kinds.js';
import type { Reply } from '../../helpers/server.js';

// Every hazard kind on a proxied upstream (the example CRM as `crm`): each fires only when switched on,
// on the operation it is switched on for; the schedule is fixed by seed and session; and the failures
// leave the recovery their kind promises. What the answers' kinds do to an answer: kinds-answers.test.ts;
// the config's rules and upstreams without a document: kinds-rules.test.ts.

interface Case {
  kind: string;
  operation: string;
  method?: Method;
  path: string;
  body?: unknown;
  /** Calls made in each session (a drift acts from the second call on). */
  calls?: number;
  /** The body of the call with the kind on, when the first one's cannot be sent twice. */
  again?: unknown;
  /** A read of a record the session makes before the calls. */
  read?: string;
}

// Writes last: the reference CRM and the proxied one stay alike until then.
const CASES: Case[] = [
  { kind: 'transient_failure', operation: 'get_contact', path: '/contacts/c_003' },
  { kind: 'latency', operation: 'get_contact', path: '/contacts/c_003' },
  { kind: 'transport_fault', operation: 'get_contact', path: '/contacts/c_003' },
  { kind: 'outage', operation: 'list_deals', path: '/deals' },
  { kind: 'truncated', operation: 'list_contacts', path: '/contacts?limit=20' },
  { kind: 'redundant', operation: 'get_contact', path: '/contacts/c_007' },
  { kind: 'output_drift', operation: 'list_deals', path: '/deals', calls: 2 },
  { kind: 'spec_drift', operation: 'list_contacts', path: '/contacts?limit=5', calls: 2 },
  { kind: 'injection', operation: 'get_contact', path: '/contacts/c_012' },
  { kind: 'sponsored', operation: 'list_contacts', path: '/contacts?limit=20' },
  { kind: 'adhoc_rule', operation: 'get_contact', path: '/contacts/c_003' },
  { kind: 'feature_limit', operation: 'list_contacts', path: '/contacts?limit=50' },
  { kind: 'conflict', operation: 'list_deals', path: '/deals' },
  {
    kind: 'unknown_outcome',
    operation: 'create_contact',
    method: 'POST',
    path: '/contacts',
    body: NEW_CONTACT,
    again: { ...NEW_CONTACT, email: 'q.blake@acme.example' },
  },
  // Only a record the session has read lags behind its write: the session reads it first.
  {
    kind: 'eventual_consistency',
    operation: 'update_contact',
    method: 'PATCH',
    path: '/contacts/c_003',
    body: { phone: '+1-555-0303' },
    read: '/contacts/c_003',
  },
];

t.test('each kind fires only when enabled, on the operation it is enabled for', async (t) => {
  const reference = await startCrm(t);
  const p = await startProxied(t, { rules: RULES, ...NO_SLEEP });
  for (const c of CASES) {
    const method = c.method ?? 'GET';
    const calls = c.calls ?? 1;
    const off = await p.server.newSession({ id: `off-${c.kind}`, ...onTool(c.operation, c.kind, 'off') });
    for (let i = 0; i < calls; i++) {
      const direct = await reference.request(method, c.path, c.body);
      const proxied = await p.proxy(method, c.path, c.body, { session: off });
      t.same(answer(proxied), answer(direct), `${c.kind} off: ${method} ${c.path} (call ${i + 1}) answers as the CRM does directly`);
    }
    t.same(await eventsOf(p.server, off), [], `${c.kind} off: nothing journaled`);

    const on = await p.server.newSession({ id: `on-${c.kind}`, ...onTool(c.operation, c.kind) });
    if (c.read) await p.proxy('GET', c.read, undefined, { session: on });
    for (let i = 0; i < calls; i++) await p.attempt(method, c.path, c.again ?? c.body, { session: on });
    const journal = await journalOf(p.server, on);
    const hit = journal.filter((entry) => entry.hazards.some((event) => event.kind === c.kind));
    t.ok(hit.length > 0, `${c.kind} on: a call carries the event`);
    for (const entry of hit) {
      t.equal(entry.domain, 'crm', `${c.kind}: the domain is the proxy's name`);
      t.equal(entry.tool, c.operation, `${c.kind}: the tool is the operationId`);
      t.same(entry.proxy.method, method);
    }
    t.same(
      [...new Set(journal.flatMap((entry) => entry.hazards.map((event) => `${event.kind} ${event.tool}`)))],
      [`${c.kind} ${c.operation}`],
      `${c.kind}: no other kind, no other operation`,
    );
  }
});

/** The calls of a session hit by its hazards, over `calls` calls of `path`; the session is deleted after. */
async function pattern(t: Test, p: Proxied, id: string, seed: string, hazards: Obj, path: string, calls = 12) {
  await p.server.newSession({ id, seed, hazards });
  await repeat(p, calls, path, id);
  const hits = await hitPattern(p.server, id);
  t.equal((await p.server.request('DELETE', `/sessions/${id}`)).status, 204);
  return hits;
}

t.test('deterministic per seed, whatever the session id: a call-scope kind (transient_failure)', async (t) => {
  const p = await startProxied(t, NO_SLEEP);
  const hazards = onTool('get_contact', 'transient_failure', 0.5).hazards;
  const first = await pattern(t, p, 'det', '7', hazards, '/contacts/c_003');
  t.ok(first.length > 0 && first.length < 12, `p=0.5 hits some calls, not all (${first.join(',')})`);
  t.same(await pattern(t, p, 'det', '7', hazards, '/contacts/c_003'), first, 'the same id and seed, created again: the same calls are hit');
  for (const id of ['det-b', 'det-c'])
    t.same(await pattern(t, p, id, '7', hazards, '/contacts/c_003'), first, `${id}: the same seed, the same pattern, whatever the id`);
  t.not((await pattern(t, p, 'det', '8', hazards, '/contacts/c_003')).join(), first.join(), 'another seed, another pattern');
});

t.test('deterministic per seed, whatever the session id: a session-scope kind (output_drift)', async (t) => {
  const p = await startProxied(t, NO_SLEEP);
  const hazards = onTool('list_deals', 'output_drift', 0.5).hazards;
  const patterns = new Map<string, string>();
  for (const seed of ['1', '2', '3', '4', '5', '6']) {
    const hits = await pattern(t, p, `drift-${seed}`, seed, hazards, '/deals');
    t.same(await pattern(t, p, `again-${seed}`, seed, hazards, '/deals'), hits, `seed ${seed}: another session with the same seed, the same calls are hit`);
    t.ok(
      hits.length === 0 || hits.join() === '2,3,4,5,6,7,8,9,10,11,12',
      `seed ${seed}: drawn once for the session, from the drift point on (${hits.join(',')})`,
    );
    patterns.set(seed, hits.join(','));
  }
  t.equal(new Set(patterns.values()).size, 2, `some seeds drift and some do not (${[...patterns.values()].join(' / ')})`);
});

t.test('recoverable: a retry of a read gets the real answer (transient_failure, latency, transport_fault)', async (t) => {
  const p = await startProxied(t, NO_SLEEP);
  const direct = await p.crm.request('GET', '/contacts/c_005');
  for (const kind of ['transient_failure', 'latency', 'transport_fault']) {
    for (const max of [1, 2]) {
      const session = await p.server.newSession({ id: `${kind}-${max}`, ...onTool('get_contact', kind, 'on', { max_consecutive: max }) });
      const replies = await repeat(p, 2 * (max + 1), '/contacts/c_005', session);
      t.same(
        replies.map(failed),
        [...Array(max).fill(true), false, ...Array(max).fill(true), false],
        `${kind}, max_consecutive ${max}: ${max} faults in a row, then the retry gets through`,
      );
      for (const reply of replies.filter((r) => !failed(r))) t.same(answer(reply), answer(direct), `${kind}: the retry gets the real answer`);
      if (kind === 'latency') for (const reply of replies.filter(failed)) t.equal(reply.status, 504, 'latency: the gateway times out');
    }
  }
  const events = await eventsOf(p.server, 'latency-2');
  t.match(events[0], { kind: 'latency', outcome: 'gateway_timeout', retryable: true });
  t.notOk('committed' in events[0]!, 'a read has no outcome to doubt');
});

t.test('recoverable: outage fails every call of its operation with 503; the others still work', async (t) => {
  const p = await startProxied(t, NO_SLEEP);
  const session = await p.server.newSession({ id: 'down', ...onTool('get_contact', 'outage') });
  const replies = await repeat(p, 5, '/contacts/c_002', session);
  for (const reply of replies) {
    t.equal(reply.status, 503);
    t.equal(reply.headers['retry-after'], '3600');
    t.match(reply.body, { code: 'service_unavailable', detail: /get_contact is temporarily unavailable/ });
  }
  t.equal(new Set(replies.map((r) => r.body.incident)).size, 1, 'one incident for the whole outage');
  for (const path of ['/contacts?limit=3', '/deals', '/contacts?q=okafor']) {
    t.same(answer(await p.proxy('GET', path, undefined, { session })), answer(await p.crm.request('GET', path)), `${path}: another operation works`);
  }
  const journal = await journalOf(p.server, session);
  t.same(
    journal.map((e) => [e.tool, e.status, e.hazards.map((h) => h.kind)]),
    [...Array(5).fill(['get_contact', 503, ['outage']]), ['list_contacts', 200, []], ['list_deals', 200, []], ['list_contacts', 200, []]],
  );
  t.ok(
    journal.slice(0, 5).every((e) => e.proxy.upstream_status === undefined),
    'the upstream is never reached while it is down',
  );
});

t.test('recoverable: unknown_outcome loses the answer of a write the CRM made exactly once', async (t) => {
  const p = await startProxied(t, NO_SLEEP);
  const statuses = new Set<number>();
  for (let i = 1; i <= 6; i++) {
    const contact = { ...NEW_CONTACT, email: `quentin.blake${i}@acme.example` };
    const session = await p.server.newSession({ id: `lost-${i}`, ...onTool('create_contact', 'unknown_outcome') });
    const reply = await p.attempt('POST', '/contacts', contact, { session });
    statuses.add(reply.status);
    t.ok([0, 502, 504].includes(reply.status), `write ${i}: the agent gets a 502, a 504 or a reset (${reply.status})`);
    const found = (await p.crm.request('GET', `/contacts?q=${encodeURIComponent(contact.email)}&limit=100`)).body as { items: Obj[] };
    t.equal(found.items.length, 1, `write ${i}: the CRM has the contact, once`);
    t.match(found.items[0], contact);
    const [entry] = await journalOf(p.server, session);
    t.equal(entry!.proxy.upstream_status, 201, 'the upstream was reached and created it');
    t.match(entry!.hazards, [{ kind: 'unknown_outcome', committed: true, retryable: true }]);
  }
  t.ok(statuses.size >= 2, `the answer is lost in more than one way (${[...statuses].join(', ')})`);
  const all = (await p.crm.request('GET', '/contacts?limit=100')).body as { items: Obj[] };
  t.equal(all.items.length, 46, '40 contacts and the 6 created: each once');
});

t.test('hints mode: the same schedule, the hint added', async (t) => {
  const plain = await startProxied(t, NO_SLEEP);
  const hinted = await startProxied(t, NO_SLEEP);
  const settings = (h: boolean) => ({
    id: 'h',
    seed: '5',
    hazards: {
      tools: { crm__get_contact: { transient_failure: 0.6 }, crm__list_deals: { outage: 'on' }, crm__list_contacts: { redundant: 'on' } },
      max_consecutive: 3,
      ...(h ? { hints: true } : {}),
    },
  });
  await plain.server.newSession(settings(false));
  await hinted.server.newSession(settings(true));

  const transient = 'The server failed transiently and did not run the call; the same call can be retried.';
  const styles = new Set<string>();
  for (let i = 0; i < 24; i++) {
    const a = await plain.proxy('GET', '/contacts/c_009', undefined, { session: 'h' });
    const b = await hinted.proxy('GET', '/contacts/c_009', undefined, { session: 'h' });
    t.equal(b.status, a.status, `get_contact ${i + 1}: the same status`);
    t.equal(a.headers['x-hint'], undefined, 'no hint without hints mode');
    if (!failed(a)) {
      t.same(b.body, a.body, 'an answer that got through is unchanged');
      continue;
    }
    const type = String(a.headers['content-type']);
    t.equal(b.headers['content-type'], type, 'the same content type');
    if (type.includes('json')) {
      styles.add('json');
      t.same(b.body, { ...(a.body as Obj), hint: transient }, 'JSON: a hint member, nothing else');
    } else {
      styles.add(type.includes('html') ? 'html' : 'text');
      t.equal(b.headers['x-hint'], transient, 'HTML or text: the x-hint header');
      t.equal(b.text, type.includes('html') ? `<!-- hint: ${transient} -->\r\n${a.text}` : `${a.text}\n(hint: ${transient})`, 'and the hint in the body');
    }
  }

  t.ok(styles.size >= 2, `failures in several styles (${[...styles].join(', ')})`);

  const down = [
    await plain.proxy('GET', '/deals', undefined, { session: 'h' }),
    await hinted.proxy('GET', '/deals', undefined, { session: 'h' }),
  ] as Reply<Obj>[];
  t.equal(down[1]!.status, down[0]!.status);
  t.same(down[1]!.body, { ...down[0]!.body, hint: 'This tool is down for now and has no substitute.' }, 'outage: the hint in the problem');

  const bulky = [
    await plain.proxy('GET', '/contacts?limit=2', undefined, { session: 'h' }),
    await hinted.proxy('GET', '/contacts?limit=2', undefined, { session: 'h' }),
  ] as Reply<Obj>[];
  const { _hint, ...rest } = bulky[1]!.body;
  t.equal(_hint, 'Most of this response is metadata or legacy fields; the answer is in the documented fields.', 'redundant: _hint in the answer');
  t.same(rest, bulky[0]!.body, 'and nothing else changed');
  t.equal(bulky[0]!.body['_hint'], undefined);

  const schedule = async (p: typeof plain) => (await journalOf(p.server, 'h')).map((e) => [e.tool, e.status, e.hazards.map((h) => h.kind)]);
  t.same(await schedule(hinted), await schedule(plain), 'the same schedule in the journal');
});
