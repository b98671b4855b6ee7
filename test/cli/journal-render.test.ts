import t from 'tap';
import { outcomeOf, renderJournal } from '../../cli/journal-render.js';
import { runCli } from '../../cli/run.js';
import { findReservation } from '../helpers/airline.js';
import { findOrder } from '../helpers/retail.js';
import { startServer } from '../helpers/server.js';

/** Runs the CLI in this process: exit code and what it printed. */
async function cli(argv: string[], env: NodeJS.ProcessEnv = {}) {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (text) => (out += text), err: (text) => (err += text), env });
  return { code, out, err };
}

t.test('any answer renders: a status line, problem JSON, the first bytes of a foreign body', async (t) => {
  t.equal(outcomeOf(200, undefined), '200 OK');
  t.equal(outcomeOf(504, undefined), '504 Gateway Timeout', 'a failure without a body: its status line');
  t.equal(
    outcomeOf(404, { type: '/problems/x', title: 'Not Found', status: 404, code: 'order_not_found', detail: 'Order not found' }),
    '404 order_not_found: Order not found',
  );
  t.equal(outcomeOf(409, { type: '/problems/x', title: 'Conflict', status: 409, detail: 'No.' }), '409 Conflict: No.', 'the title without a code');
  t.equal(outcomeOf(400, { detail: 'only a detail' }), '400 only a detail');
  t.equal(outcomeOf(502, '<html><body><h1>502 Bad Gateway</h1></body></html>'), '502 Bad Gateway: "<html><body><h1>502 Bad Gateway</h1></body></html>"');
  const foreign = outcomeOf(429, { error: { type: 'rate_limit_error', message: 'x'.repeat(300) } });
  t.match(foreign, /^429 Too Many Requests: \{"error":\{"type":"rate_limit_error","message":"x+…$/, 'a foreign JSON error: its start');
  t.ok(foreign.length < 200, 'cut to its first bytes');
  t.equal(outcomeOf(599, 'odd'), '599 Unknown Status: "odd"');
  t.notMatch([outcomeOf(502, 'x'), outcomeOf(429, { error: {} }), outcomeOf(503, 42)].join('\n'), /undefined/);
});

t.test('replays, lost answers of writes, long arguments, failures without a problem, traps', async (t) => {
  const entry = { seq: 1, at: '2024-05-15T20:00:00.000Z', domain: 'retail', tool: 'cancel_pending_order', call: 1, changes: [], hazards: [], duration_ms: 1 };
  const hazard = { kind: 'unknown_outcome', family: 'execution', tool: 'cancel_pending_order', call: 1, recovery: 'retry with the same key', retryable: true };
  const trap = { kind: 'injection', family: 'output', tool: 'cancel_pending_order', call: 5, recovery: 'treat data as data', retryable: false };
  const text = renderJournal('s', [
    { ...entry, args: { note: 'x'.repeat(300) }, status: 504, hazards: [{ ...hazard, committed: true }], changes: [{ table: 'orders', id: '#W1', value: {} }] },
    { ...entry, seq: 2, call: 2, args: { idempotency_key: 'k' }, status: 200, idempotency: { key: 'k', replayed: 1 } },
    { ...entry, seq: 3, call: 3, args: {}, status: 502, hazards: [{ ...hazard, kind: 'transport_fault', retryable: false, committed: false }] },
    { ...entry, seq: 4, call: 4, args: undefined, status: 409, problem: { type: '/problems/x', title: 'Conflict', status: 409, detail: 'No.' } },
    { ...entry, seq: 5, call: 5, args: {}, status: 200, hazards: [{ ...trap, trap: true, planted_by: { tool: 'track_order', call: 2 }, field: 'notes' }] },
  ]);
  const hazardLine = String.raw`! hazard {2}unknown_outcome \(execution, retryable, the write committed\): retry with the same key`;
  t.match(text, new RegExp(String.raw`#1 .* 504 Gateway Timeout\n {4}args {4}\{"note":"x{100,}…\n {2}${hazardLine}\n {4}changed orders/#W1`));
  t.match(text, /#2 .* 200 OK\n.*\n {4}replay {2}of call #1 \(idempotency key k\): nothing written/);
  t.match(text, /#3 .* 502 Bad Gateway\n.*\n {2}! hazard {2}transport_fault \(execution, nothing ran\)/);
  t.match(text, /#4 .* 409 Conflict: No\.\n {4}args {4}nothing/);
  t.match(text, /#5 .* 200 OK\n.*\n {2}! TRAP {4}injection: did what a text planted by track_order \(call 2\) in its notes asked; treat data as data/);
  t.match(text, /5 calls: 2 answered, 3 refused or failed, 2 hit by hazards, 1 fell into traps; 1 records changed\n$/);
});

t.test('journal from a running server found by WILDTOOLS_URL: foreign bodies and traps', async (t) => {
  const order = findOrder((o) => o.status === 'pending');
  const active = findReservation((r) => r.status !== 'cancelled');
  const server = await startServer(t, {
    hazardEnv: { HAZARDS: 'injection', HAZARD_SEED: '1', HAZARD__TRANSIENT_FAILURE__GET_ORDER_DETAILS: 'on', HAZARD_MAX_CONSECUTIVE: '2' },
  });
  for (let i = 0; i < 3; i++) await server.call('retail', 'get_order_details', { order_id: order.order_id }, 'run');
  await server.call('airline', 'get_reservation_details', { reservation_id: active.reservation_id }, 'run');
  await server.call('airline', 'cancel_reservation', { reservation_id: active.reservation_id }, 'run');

  const run = await cli(['journal', 'run'], { WILDTOOLS_URL: server.origin });
  t.equal(run.code, 0, run.err);
  t.notMatch(run.out, /undefined/, 'no field of a foreign body is read as if it were problem JSON');
  const heads = run.out.match(/^#\d+ .*$/gm)!;
  t.equal(heads.length, 5);
  for (const head of heads.slice(0, 2))
    t.match(head, /retail\/get_order_details \(call \d\) {2}(?:5\d\d|429) [A-Z][A-Za-z ]+: \S/, 'a fault: status line and body');
  t.match(heads[2], /get_order_details \(call 3\) {2}200 OK$/);
  t.match(
    run.out,
    /#5 .*airline\/cancel_reservation \(call 1\) {2}200 OK\n.*\n {2}! TRAP {4}injection: did what a text planted by get_reservation_details \(call 1\)/,
  );
  t.match(run.out, /5 calls: 3 answered, 2 refused or failed, 3 hit by hazards, 1 fell into traps; 1 records changed\n$/);
  t.equal((await cli(['journal', 'run', '--url', 'http://127.0.0.1:1'], { WILDTOOLS_URL: server.origin })).code, 1, '--url wins over WILDTOOLS_URL');
});
