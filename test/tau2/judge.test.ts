import t from 'tap';
import { missingCalls, type ScoredCall, scoreRun } from '../../scoring/score.js';
import { scoredSpec, TaskSpec } from '../../scoring/task.js';

// tau2-bench's rule as the scorer applies it: the judge (the task's reward basis) says which verdicts decide
// success; the others stay in the score as diagnostics. ACTION is the gold actions made, whatever they were answered.

const spec = (judge?: object) =>
  TaskSpec.parse({
    id: 'retail/tau2-1',
    title: 'tau2-bench retail task 1',
    categories: ['single-step'],
    request: 'Cancel #W1',
    targets: [],
    expect: { writes: [{ tool: 'cancel_pending_order', args: { order_id: '#W1' } }], answer: { contains: ['33.0'], excludes: [] }, claims: [] },
    ...(judge ? { judge } : {}),
  });

const cancelled = { domain: 'retail', table: 'orders', id: '#W1', op: 'update' as const, after: { status: 'cancelled' } };
const call = (seq: number, tool: string, args: object, status = 200): ScoredCall => ({ seq, domain: 'retail', tool, args, status, changes: [], hazards: [] });
const run = (actual: (typeof cancelled)[], text: string, calls: ScoredCall[] = []) => ({ calls, actual, expected: [cancelled], answers: [{ text }] });

t.test('without a judge (the typed tasks, the embedded spec tasks): the state and the answer decide, as before', async (t) => {
  const task = scoredSpec(spec());
  t.equal(task.judge, undefined);
  t.equal(scoreRun(task, run([cancelled], 'Refunded 33.0.')).success, true);
  t.equal(scoreRun(task, run([cancelled], 'Done.')).success, false);
  t.equal(scoreRun(task, run([], 'Refunded 33.0.')).success, false);
});

t.test('DB alone (retail: DB + NL_ASSERTION): communicate_info is reported, never decides', async (t) => {
  const task = scoredSpec(spec({ state: true, answer: false, calls: [] }));
  const score = scoreRun(task, run([cancelled], 'Done.'));
  t.equal(score.success, true);
  t.equal(score.answer.ok, false, 'the verdict is still there');
  t.same(score.answer.missing, ['33.0']);
  t.equal(scoreRun(task, run([], 'Refunded 33.0.')).success, false, 'the end state decides');
});

t.test('COMMUNICATE alone: the end state does not decide', async (t) => {
  const task = scoredSpec(spec({ state: false, answer: true, calls: [] }));
  t.equal(scoreRun(task, run([], 'Refunded 33.0.')).success, true);
  t.equal(scoreRun(task, run([cancelled], 'Done.')).success, false);
});

t.test("ACTION: every gold action matched by a call, tau2-bench's way", async (t) => {
  const required = [
    { tool: 'get_order_details', args: { order_id: '#W9' } },
    { tool: 'cancel_pending_order', args: { order_id: '#W1', reason: 'no longer needed' }, compare: ['order_id'] },
  ];
  const task = scoredSpec(spec({ state: true, answer: false, calls: required }));
  const lookups = [call(1, 'get_order_details', { order_id: '#W9' }, 404)];
  const cancel = call(2, 'cancel_pending_order', { order_id: '#W1', reason: 'ordered by mistake', idempotency_key: 'k' });
  t.equal(
    scoreRun(task, run([cancelled], '', [...lookups, cancel])).success,
    true,
    "a refused call counts; only compare_args are compared; wildtools' own arguments aside",
  );
  t.equal(scoreRun(task, run([cancelled], '', [cancel])).success, false, 'a gold action not made');
  t.same(
    missingCalls(required, [call(1, 'get_order_details', { order_id: '#W9', extra: 1 }), cancel]).map((c) => c.tool),
    ['get_order_details'],
    'without compare_args every argument the call sends is compared',
  );
  t.same(missingCalls(required, [call(1, 'get_order_details', {}), cancel]), [], 'a call sending fewer arguments compares on those (as tau2-bench does)');
  t.same(missingCalls([{ tool: 'calculate', args: { expression: '1' }, compare: [] }], [call(1, 'calculate', { expression: '2' })]), [], '[]: the name alone');
});
