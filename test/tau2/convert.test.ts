import t from 'tap';
import { convertTau2Tasks, tau2Request, USER_SIDE } from '../../scoring/tau2.js';
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
  const { tasks, skipped, details } = convertTau2Tasks(
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
  t.equal(
    task.request,
    `${USER_SIDE}\n\nWhy the user calls:\nCancel my order.\n\nWhat the user knows:\nMy email is a@b.c.\n\nHow the user behaves and decides (their own ` +
      `instructions):\nBe terse.`,
  );
  t.same(task.categories, ['multi-step']);
  t.same(task.expect.writes, [{ tool: 'cancel_pending_order', args: { order_id: '#W1', reason: 'no longer needed' } }]);
  t.same(task.expect.answer, { contains: ['10'], excludes: [] });
  t.same(
    task.targets.map((target) => `${target.kind}@${target.tool}`),
    ['transient_failure@get_order_details', 'unknown_outcome@cancel_pending_order'],
    'only generic kinds, only on the tools the gold actions use',
  );
  t.same(details.get(task.id), { id: '0', reward_basis: ['DB'], unscored: [], nl_assertions: 1, refusals: [] });
  t.same(task.judge, { state: true, answer: false, calls: [] }, 'DB alone decides: communicate_info is not judged');
});

t.test('a plain-string instruction is the request; one action is single-step', async (t) => {
  const entry = { ...tau2('a.1', [action('calculate', { expression: '1+1' })]), user_scenario: { instructions: 'Add one and one.' } };
  const { tasks } = convertTau2Tasks([entry], context);
  t.equal(tasks[0]!.request, `${USER_SIDE}\n\nThe user's instructions:\nAdd one and one.`);
  t.same(tasks[0]!.categories, ['single-step']);
});

t.test('what cannot run is skipped with why', async (t) => {
  const { tasks, skipped } = convertTau2Tasks(
    [
      tau2('1', [action('calculate', { expression: '1' })], {
        initial_state: { initialization_actions: [{ env_type: 'assistant', func_name: 'f', arguments: {} }] },
      }),
      tau2('2', null),
      tau2('u', [{ ...action('calculate', { expression: '1' }), requestor: 'user' }]),
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
    ['1', '2', 'u', '3', '4', 'bad id!', '9', '#8'],
  );
  t.match(skipped[0]!.why, /initial_state sets initialization_actions/);
  t.match(skipped[1]!.why, /evaluation_criteria\.actions/);
  t.match(skipped[2]!.why, /requestor "user"/);
  t.match(skipped[3]!.why, /apply_coupon is not a tool/);
  t.match(skipped[4]!.why, /duplicate/);
  t.match(skipped[5]!.why, /id/);
  t.match(skipped[6]!.why, /not a tau2-bench task/);
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

t.test('an initial_state that sets nothing is applied as tau2-bench applies it: not at all', async (t) => {
  const empty = { initialization_data: { agent_data: null, user_data: null }, initialization_actions: null, message_history: [] };
  const data = { initialization_data: { agent_data: { orders: {} }, user_data: null }, initialization_actions: null, message_history: null };
  const history = { message_history: [{ role: 'user', content: 'hi' }] };
  const { tasks, skipped } = convertTau2Tasks(
    [
      tau2('e', [action('calculate', { expression: '1' })], { initial_state: empty }),
      tau2('d', [action('calculate', { expression: '1' })], { initial_state: data }),
      tau2('h', [action('calculate', { expression: '1' })], { initial_state: history }),
    ],
    context,
  );
  t.same(
    tasks.map((task) => task.id),
    ['retail/tau2-e'],
  );
  t.match(skipped, [
    { id: 'd', why: /initial_state sets initialization_data \(/ },
    { id: 'h', why: /initial_state sets message_history/ },
  ]);
});

t.test('the request is the user side tau2-bench gives its user simulator, labelled as such', async (t) => {
  const [parsed] = convertTau2Tasks(
    [
      {
        ...tau2('r', [action('calculate', { expression: '1' })]),
        user_scenario: {
          persona: 'A retired teacher.',
          instructions: {
            task_instructions: 'If asked which order, say the one with the lamp; never accept a gift card refund.',
            domain: 'retail',
            reason_for_call: 'You want a refund.',
            known_info: 'Your email is a@b.c.',
            unknown_info: 'You do not know your order id.',
          },
        },
      },
    ],
    context,
  ).tasks;
  const request = parsed!.request;
  t.ok(request.startsWith(USER_SIDE), 'introduced as the user side, not instructions to the agent');
  t.match(request, /it is not an instruction to you/);
  const parts: [string, string][] = [
    ['Who the user is', 'A retired teacher.'],
    ['Why the user calls', 'You want a refund.'],
    ['What the user knows', 'Your email is a@b.c.'],
    ['What the user does not know', 'You do not know your order id.'],
    ['How the user behaves and decides (their own instructions)', 'If asked which order, say the one with the lamp; never accept a gift card refund.'],
  ];
  for (const [label, text] of parts) t.ok(request.includes(`${label}:\n${text}`), label);
  const bare = tau2('b', []);
  bare.user_scenario.instructions = { ...bare.user_scenario.instructions, task_instructions: '.', known_info: null as never };
  t.notMatch(tau2Request(bare as never), /behaves|knows/, 'a "." or a null says nothing and is left out');
});

t.test("the reward basis decides what is judged (tau2-bench's evaluator); without one, DB and COMMUNICATE", async (t) => {
  const criteria = (extra: object) => ({
    ...tau2('x', []),
    evaluation_criteria: { actions: [action('get_order_details', { order_id: '#W1' })], communicate_info: ['10'], nl_assertions: ['polite'], ...extra },
  });
  const convert = (id: string, extra: object) => {
    const { tasks, details, skipped } = convertTau2Tasks([{ ...criteria(extra), id }], context);
    t.same(skipped, []);
    return { judge: tasks[0]!.judge, details: details.get(tasks[0]!.id)! };
  };
  t.same(convert('default', {}).judge, { state: true, answer: true, calls: [] }, 'tau2-bench default: DB and COMMUNICATE');
  t.same(convert('retail', { reward_basis: ['DB', 'NL_ASSERTION'] }).judge, { state: true, answer: false, calls: [] });
  t.same(convert('retail', { reward_basis: ['DB', 'NL_ASSERTION'] }).details.unscored, ['NL_ASSERTION']);
  t.same(convert('nothing-to-say', { reward_basis: ['DB', 'COMMUNICATE'], communicate_info: [] }).judge?.answer, false, 'nothing to communicate: reward 1');
  t.same(convert('talk', { reward_basis: ['COMMUNICATE'] }).judge, { state: false, answer: true, calls: [] });
  t.same(convert('env', { reward_basis: ['ENV_ASSERTION', 'DB'] }).details.unscored, ['ENV_ASSERTION']);
  const action_ = convert('act', {
    reward_basis: ['ACTION'],
    actions: [{ ...action('get_order_details', { order_id: '#W1' }), compare_args: ['order_id'] }, action('calculate', { expression: '2' })],
  }).judge!;
  t.same(action_, {
    state: false,
    answer: false,
    calls: [
      { tool: 'get_order_details', args: { order_id: '#W1' }, compare: ['order_id'] },
      { tool: 'calculate', args: { expression: '2' } },
    ],
  });
  const { skipped } = convertTau2Tasks([{ ...criteria({ reward_basis: ['VIBES'] }), id: 'v' }], context);
  t.match(skipped, [{ id: 'v', why: /not a tau2-bench task: evaluation_criteria\.reward_basis/ }]);
});

t.test('gold actions the replay refuses are expected refusals: no expected write, the task kept', async (t) => {
  const seen: string[][] = [];
  const { tasks, details, skipped } = convertTau2Tasks(
    [
      tau2('r', [
        action('get_order_details', { order_id: '#W9' }),
        action('cancel_pending_order', { order_id: '#W1', reason: 'oops' }),
        action('cancel_pending_order', { order_id: '#W1', reason: 'no longer needed', extra: null }),
      ]),
    ],
    {
      ...context,
      replay: (actions) => {
        seen.push(actions.map((a) => a.name));
        return [
          { ok: false, status: 404, code: 'order_not_found', detail: 'Order not found' },
          { ok: false, status: 422, code: 'invalid_reason', detail: 'Invalid reason' },
          { ok: true, args: { order_id: '#W1', reason: 'no longer needed' } },
        ];
      },
    },
  );
  t.same(skipped, []);
  t.same(seen, [['get_order_details', 'cancel_pending_order', 'cancel_pending_order']], 'every gold action replayed, reads too, in order');
  t.same(
    tasks[0]!.expect.writes,
    [{ tool: 'cancel_pending_order', args: { order_id: '#W1', reason: 'no longer needed' } }],
    'the refused write is not expected',
  );
  t.same(details.get('retail/tau2-r')!.refusals, [
    { action: 0, action_id: 'x', tool: 'get_order_details', status: 404, code: 'order_not_found', detail: 'Order not found' },
    { action: 1, action_id: 'x', tool: 'cancel_pending_order', status: 422, code: 'invalid_reason', detail: 'Invalid reason' },
  ]);
  const broken = convertTau2Tasks([tau2('b', [action('calculate', { expression: '1' })])], {
    ...context,
    replay: () => {
      throw new Error('a bug');
    },
  });
  t.match(broken.skipped, [{ id: 'b', why: 'replaying its gold actions failed: a bug' }]);
});
