import t from 'tap';
import { convertTau2Tasks } from '../../scoring/tau2.js';
import { TaskSpec } from '../../scoring/task.js';
import { profileKinds } from '../../lib/hazard-profiles.js';

// tau2-bench tasks as wildtools tasks: what each field becomes, and what is skipped with why.

const context = {
  domain: 'retail',
  tools: new Set(['find_user_id_by_email', 'get_order_details', 'cancel_pending_order', 'calculate']),
  writes: new Set(['cancel_pending_order']),
  scenarios: [
    { kind: 'transient_failure', tool: 'get_order_details', recovery: 'retry' },
    { kind: 'adhoc_rule', tool: 'get_order_details', recovery: 'reformat' },
    { kind: 'unknown_outcome', tool: 'cancel_pending_order', recovery: 'same key' },
    { kind: 'transient_failure', tool: 'calculate', recovery: 'retry' },
  ],
  kinds: ['transient_failure', 'unknown_outcome'],
};

const action = (name: string, args: object) => ({ action_id: 'x', name, arguments: args, info: null });
const tau2 = (id: string, actions: object[] | null, extra: object = {}) => ({
  id,
  description: { purpose: null },
  user_scenario: {
    persona: null,
    instructions: {
      task_instructions: 'Be terse.',
      domain: 'retail',
      reason_for_call: 'Cancel my order.',
      known_info: 'My email is a@b.c.',
      unknown_info: null,
    },
  },
  initial_state: null,
  evaluation_criteria: actions === null ? null : { actions, communicate_info: ['10'], nl_assertions: ['polite'], reward_basis: ['DB'] },
  ...extra,
});

t.test('a task becomes a wildtools task', async (t) => {
  const { tasks, skipped, nl_assertions } = convertTau2Tasks(
    [
      tau2('0', [
        action('find_user_id_by_email', { email: 'a@b.c' }),
        action('get_order_details', { order_id: '#W1' }),
        action('cancel_pending_order', { order_id: '#W1', reason: 'no longer needed' }),
      ]),
    ],
    context,
  );
  t.same(skipped, []);
  const task = TaskSpec.parse(tasks[0]);
  t.equal(task.id, 'retail/tau2-0');
  t.match(task.title, /task 0$/);
  t.equal(task.request, 'Cancel my order.\n\nMy email is a@b.c.');
  t.same(task.categories, ['multi-step']);
  t.same(task.expect.writes, [{ tool: 'cancel_pending_order', args: { order_id: '#W1', reason: 'no longer needed' } }]);
  t.same(task.expect.answer, { contains: ['10'], excludes: [] });
  t.same(
    task.targets.map((target) => `${target.kind}@${target.tool}`),
    ['transient_failure@get_order_details', 'unknown_outcome@cancel_pending_order'],
    'only generic kinds, only on the tools the gold actions use',
  );
  t.equal(nl_assertions.get(task.id), 1);
});

t.test('a plain-string instruction is the request; one action is single-step', async (t) => {
  const entry = { ...tau2('a.1', [action('calculate', { expression: '1+1' })]), user_scenario: { instructions: 'Add one and one.' } };
  const { tasks } = convertTau2Tasks([entry], context);
  t.equal(tasks[0]!.request, 'Add one and one.');
  t.same(tasks[0]!.categories, ['single-step']);
});

t.test('what cannot run is skipped with why', async (t) => {
  const { tasks, skipped } = convertTau2Tasks(
    [
      tau2('1', [action('calculate', { expression: '1' })], { initial_state: { initialization_actions: [] } }),
      tau2('2', null),
      tau2('3', [action('apply_coupon', {})]),
      tau2('4', [action('calculate', { expression: '1' })]),
      tau2('4', [action('calculate', { expression: '2' })]),
      tau2('bad id!', [action('calculate', { expression: '1' })]),
      { id: 9 },
      'not an object',
    ],
    context,
  );
  t.same(
    tasks.map((task) => task.id),
    ['retail/tau2-4'],
  );
  t.same(
    skipped.map((entry) => entry.id),
    ['1', '2', '3', '4', 'bad id!', '9', '#7'],
  );
  t.match(skipped[0]!.why, /initial_state/);
  t.match(skipped[1]!.why, /evaluation_criteria\.actions/);
  t.match(skipped[2]!.why, /apply_coupon is not a tool/);
  t.match(skipped[3]!.why, /duplicate/);
  t.match(skipped[4]!.why, /id/);
  t.match(skipped[5]!.why, /not a tau2-bench task/);
});

t.test('argument keys are own keys: __proto__ is an ordinary key', async (t) => {
  const args = JSON.parse('{"order_id": "#W1", "reason": "no longer needed", "__proto__": {"polluted": true}}');
  const { tasks } = convertTau2Tasks([tau2('5', [action('cancel_pending_order', args)])], context);
  const written = tasks[0]!.expect.writes[0]!.args;
  t.ok(Object.hasOwn(written, '__proto__'), 'kept as an own key');
  t.equal((written as { polluted?: unknown }).polluted, undefined, 'no prototype was set');
  t.equal(({} as { polluted?: unknown }).polluted, undefined);
});

t.test('profiles name generic kinds; an unknown word is refused', async (t) => {
  t.same(profileKinds('writes'), ['unknown_outcome']);
  t.ok(profileKinds('all').includes('spec_drift'));
  t.same(profileKinds('latency,transient_failure'), ['latency', 'transient_failure']);
  t.throws(() => profileKinds('adhoc_rule'), /unknown profile or kind "adhoc_rule"/);
  t.throws(() => profileKinds('__proto__'), /unknown profile/);
});
