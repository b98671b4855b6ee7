import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { join } from 'node:path';
import t from 'tap';
import { Agent } from 'undici';
import {
  type ChatMessage,
  type EvalRun,
  INSTRUCTION,
  converse,
  evalConditions,
  evalReport,
  evalSession,
  modelSlug,
  nowLine,
  parseArguments,
  runEval,
  runModel,
  taskDetails,
  toolResult,
} from '../../agents/eval.js';
import { evalFlags, evalSummary } from '../../agents/eval-cli.js';
import { backoff, complete, ModelError } from '../../agents/eval-chat.js';
import { comparableJournal, runMatrix, summarise, whyFailed } from '../../agents/matrix.js';
import { plans } from '../../agents/plans/index.js';
import { matrixTable, reportHtml, writeReport } from '../../agents/report.js';
import { validity } from '../../agents/validity.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { type Answer, calls, fakeEndpoint, reply, type Seen, say } from '../helpers/fake-model.js';

// The eval driver against a real wildtools and a scripted model behind a fake OpenAI-compatible endpoint
// on loopback: the fake reads the request's words and the tool messages it receives to decide its next
// step, as a model would, and submits its answer with submit_answer. Whatever depends on the seed (the
// customer, the orders, the answer, the faults drawn) is read from the server, never written here.

/** A tool result as the model reads it: the call it answers, its status, and its body when it succeeded. */
interface Result {
  name: string;
  args: any;
  content: string;
  ok: boolean;
  body: any;
}

/** The JSON after a tool message's status line (and the header lines shown, if any). */
function bodyOf(content: string): unknown {
  const rest = content.slice(content.indexOf('\n') + 1);
  try {
    return JSON.parse(rest);
  } catch {
    return JSON.parse(rest.slice(rest.indexOf('\n\n') + 2));
  }
}

/** The tool results a request carries: each tool message with the call it answers. */
function resultsOf(messages: readonly ChatMessage[]): Result[] {
  const asked = new Map<string, { name: string; args: any }>();
  for (const message of messages)
    if (message.role === 'assistant')
      for (const call of message.tool_calls ?? []) {
        let args: unknown;
        try {
          args = JSON.parse(call.function.arguments);
        } catch {}
        asked.set(call.id, { name: call.function.name, args });
      }
  return messages.flatMap((message) => {
    if (message.role !== 'tool') return [];
    const call = asked.get(message.tool_call_id)!;
    const ok = /^HTTP 2\d\d /.test(message.content);
    return [{ ...call, content: message.content, ok, body: ok ? bodyOf(message.content) : undefined }];
  });
}

/** What retail/001's request states, read from its words as a model reads them. */
const REQUEST = /\(email (?<email>[^\s)]+)\)\. Please cancel my pending order with the (?<product>.+?) in it\b/;

const money = (amount: number) => `$${amount.toFixed(2)}`;

/**
 * A model that solves retail/001 from its words: reads the email and the product in the request, looks the
 * customer up, reads their profile, then every order of it at once (parallel calls), reading again the ones
 * that failed until each is answered; cancels the one pending order holding the product (a failed
 * cancellation is sent again, without an idempotency key, until it is refused); then submits the order and
 * the refund rows of the cancelled order, with a message. A refusal or a dead end is said in words.
 * `lie`: it skips the cancellation and submits the order with its payments as the refunds all the same.
 */
function retail001({ lie = false } = {}) {
  return (body: any): Answer => {
    const messages = body.messages as ChatMessage[];
    const request = REQUEST.exec(messages.find((message) => message.role === 'user')!.content ?? '')?.groups;
    if (!request) throw new Error(`not a request of retail/001: ${JSON.stringify(messages[1])}`);
    const { email, product } = request as { email: string; product: string };
    const results = resultsOf(messages);
    const step = messages.filter((message) => message.role === 'assistant').length;
    const of = (name: string) => results.filter((result) => result.name === name);

    const user = of('find_user_id_by_email').at(-1);
    if (!user?.ok) return of('find_user_id_by_email').length < 3 ? calls(step, ['find_user_id_by_email', { email }]) : say('I cannot find your account.');
    const profile = of('get_user_details').at(-1);
    if (!profile?.ok) return of('get_user_details').length < 3 ? calls(step, ['get_user_details', { user_id: user.body }]) : say('I cannot read your account.');
    const orders = profile.body.orders as string[];
    const read = new Map(of('get_order_details').flatMap((result) => (result.ok ? [[result.body.order_id as string, result.body]] : [])));
    const unread = orders.filter((id) => !read.has(id));
    if (unread.length > 0) {
      if (of('get_order_details').length >= 4 * orders.length) return say('I cannot read your orders right now.');
      return calls(step, ...unread.map((order_id): [string, object] => ['get_order_details', { order_id }]));
    }
    const holding = [...read.values()].filter(
      (order) => order.status === 'pending' && order.items.some((item: any) => item.name.toLowerCase() === product.toLowerCase()),
    );
    if (holding.length !== 1) return say(`You have ${holding.length} pending orders with a ${product}: which one do you mean?`);
    const order = holding[0]!;
    const submitted = of('submit_answer').at(-1);
    if (submitted) return say(`My answer was refused: ${submitted.content.split('\n')[0]}.`);
    const answer = (order_id: string, refunds: { payment_method_id: string; amount: number }[], status: string) =>
      calls(step, [
        'submit_answer',
        {
          order_id,
          refunds,
          message: `Order ${order_id} is ${status}. ${refunds.map((refund) => `${money(refund.amount)} goes back to ${refund.payment_method_id}`).join('; ')}.`,
        },
      ]);
    const rows = (history: any[], type: string) =>
      history.filter((row) => row.transaction_type === type).map(({ payment_method_id, amount }) => ({ payment_method_id, amount }));
    if (lie) return answer(order.order_id, rows(order.payment_history, 'payment'), 'cancelled');
    const cancels = of('cancel_pending_order');
    const cancel = cancels.at(-1);
    if (!cancel || (!cancel.ok && !/^HTTP 4/.test(cancel.content) && cancels.length < 3))
      return calls(step, ['cancel_pending_order', { order_id: order.order_id, reason: 'no longer needed' }]);
    if (!cancel.ok) return say(`I could not cancel order ${order.order_id}: ${cancel.content.split('\n')[0]}.`);
    return answer(cancel.body.order_id, rows(cancel.body.payment_history, 'refund'), cancel.body.status);
  };
}

const toolMessages = (seen: Seen) =>
  (seen.body.messages as ChatMessage[]).filter((message) => message.role === 'tool') as { tool_call_id: string; content: string }[];

/** The first line of each tool message that answers a call the server received (not those refused before a call), in order. */
const statusLines = (messages: readonly ChatMessage[]) =>
  messages.flatMap((message) => (message.role === 'tool' && /^(HTTP \d{3}|Connection failed)/.test(message.content) ? [message.content.split('\n')[0]!] : []));

/** The status line a journal entry's call shows the model. */
const statusLineOf = (status: number) =>
  status === 0
    ? 'Connection failed: the connection closed without a complete HTTP answer.'
    : `HTTP ${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''}`;

/** retail/001's instance for a seed, as the server built it: what the request states and the reference answer. */
async function instanceOf(server: TestServer, seed: number) {
  const instance = (await server.app.tasks.ready()).instance('retail/001', seed);
  return { given: instance.given as { name: string; email: string; product: string }, expected: instance.turns[0]!.answer!.expected as any };
}

/** The customer of retail/001's instance and their orders, read in a hazard-free session of its own. */
async function customerOf(server: TestServer, seed: number, email: string) {
  const session = await server.newSession({ id: `probe.${seed}`, task: 'retail/001', seed, kinds: [] });
  const user_id = (await server.call('retail', 'find_user_id_by_email', { email }, session)).body as string;
  const orders = (await server.call('retail', 'get_user_details', { user_id }, session)).body.orders as string[];
  return { session, user_id, orders };
}

const hazardKinds = (entry: any) => entry.hazards.map((event: any) => event.kind);
const withoutMessage = ({ message: _words, ...answer }: Record<string, unknown>) => answer;

t.test('a scripted model solves retail/001 from its words, hazard-free and under transient failures; the report holds its matrix', async (t) => {
  const server = await startServer(t);
  const fake = await fakeEndpoint(t, retail001());
  const dispatcher = new Agent();
  t.teardown(() => dispatcher.close());
  const { report, runs } = await runEval(
    dispatcher,
    server.origin,
    { baseUrl: fake.baseUrl, model: 'scripted/retail-1', apiKey: 'test-key', temperature: 0 },
    { patterns: ['retail/001'], concurrency: 1 },
  );
  const task = (await server.request('GET', '/tasks/retail/001?seed=1')).body as any;
  const { given, expected } = await instanceOf(server, 1);
  t.same(task.given, given, 'GET /tasks/retail/001?seed=1 shows the instance the eval ran');
  const customer = await customerOf(server, 1, given.email);
  const { orders } = customer;
  t.ok(orders.includes(expected.order_id), "the order to cancel is one of the customer's");

  t.same(
    runs.map((run) => [run.seed, run.condition, run.session]),
    [
      [1, 'none', 'e.scripted-re-06vb2.retail.001.1.none'],
      [1, 'unknown_outcome', 'e.scripted-re-06vb2.retail.001.1.unknown_outcome'],
      [1, 'transient_failure', 'e.scripted-re-06vb2.retail.001.1.transient_failure'],
    ],
    'one run per condition on seed 1: hazard-free, then each targeted kind, in sessions named by model, task, seed and condition',
  );
  const [none, unknown, transient] = runs as [EvalRun, EvalRun, EvalRun];
  for (const run of runs)
    t.same(
      statusLines(run.messages),
      run.journal.map((entry: any) => statusLineOf(entry.status)),
      `${run.condition}: the model saw each call's status line`,
    );

  // Hazard-free: the walk, the cancellation, the typed answer.
  t.equal(none.success, true, 'hazard-free: success');
  t.equal(none.error, undefined);
  t.same(
    none.journal.map((entry: any) => [entry.seq, entry.tool, entry.status]),
    [
      ['find_user_id_by_email', 200],
      ['get_user_details', 200],
      ...orders.map(() => ['get_order_details', 200]),
      ['cancel_pending_order', 200],
      ['submit_answer', 200],
    ].map((entry, i) => [i + 1, ...entry]),
    'the journal has the calls in the order the model made them, the parallel ones in message order',
  );
  const args = (run: EvalRun, tool: string) => run.journal.filter((entry: any) => entry.tool === tool).map((entry: any) => entry.args);
  t.same(args(none, 'find_user_id_by_email'), [{ email: given.email }], 'the email read from the request');
  t.same(args(none, 'get_user_details'), [{ user_id: customer.user_id }]);
  t.same(
    args(none, 'get_order_details'),
    orders.map((order_id) => ({ order_id })),
    "each of the customer's orders read",
  );
  t.same(args(none, 'cancel_pending_order'), [{ order_id: expected.order_id, reason: 'no longer needed' }], 'the pending order holding the product cancelled');
  const held = none.journal.find((entry: any) => entry.tool === 'get_order_details' && entry.args.order_id === expected.order_id).result;
  t.ok(
    held.items.some((item: any) => item.name.toLowerCase() === given.product),
    'the order cancelled holds the product the request names',
  );
  const [submitted] = args(none, 'submit_answer');
  t.same(withoutMessage(submitted), expected, "the answer submitted is the instance's reference answer");
  t.match(submitted.message, new RegExp(`^Order ${expected.order_id} is cancelled\\. \\$\\d+\\.\\d\\d goes back to \\w+`), 'with words for the user');
  t.same(
    none.score.answer,
    { ok: true, answered: true, rule: 'typed', differences: [], missing: [], stated_but_excluded: [] },
    'the score compares the typed fields',
  );
  t.equal(none.score.state.ok, true);
  t.same(none.score.contradicted_claims, []);
  t.equal(none.score.success, true, "the server's score says success");
  t.same(none.steps, [5], 'five model requests: four with tool calls, the last the answer, which ends the turn');
  t.same(none.cut, []);
  t.same(none.answers, [''], 'no words besides the answer: a typed turn is answered by submit_answer');

  // Under transient_failure: the failed reads read again.
  t.equal(transient.success, true, 'under transient_failure: success (the model read again what failed)');
  const reads = transient.journal.filter((entry: any) => entry.tool === 'get_order_details');
  const failed = reads.filter((entry: any) => entry.status !== 200);
  t.ok(failed.length > 0, 'reads failed');
  t.same(
    failed.map(hazardKinds),
    failed.map(() => ['transient_failure']),
    'every failed read is the hazard',
  );
  t.ok(
    failed.every((entry: any) => entry.status === 429 || entry.status >= 500),
    'as a 429 or a 5xx',
  );
  t.same(
    reads.filter((entry: any) => entry.status === 200).map(hazardKinds),
    reads.filter((entry: any) => entry.status === 200).map(() => []),
  );
  for (const order_id of orders) {
    const statuses = reads.filter((entry: any) => entry.args.order_id === order_id).map((entry: any) => entry.status);
    t.equal(statuses.indexOf(200), statuses.length - 1, `${order_id} read until it was answered, then no more`);
  }
  t.same(
    transient.journal.map((entry: any) => entry.tool).filter((tool: string) => tool !== 'get_order_details'),
    ['find_user_id_by_email', 'get_user_details', 'cancel_pending_order', 'submit_answer'],
  );
  t.same(withoutMessage(args(transient, 'submit_answer')[0]), expected, 'the same answer');
  t.match(transient.score.hazards, [{ kind: 'transient_failure', tool: 'get_order_details', recovered: true }]);
  t.ok(transient.score.retries > 0, 'the score counts the retries');

  // Under unknown_outcome: the cancellation went through, its answer was lost, the blind retry was refused.
  t.equal(unknown.success, false, 'under unknown_outcome the model (no idempotency key) fails');
  t.equal(unknown.error, undefined, 'a failure of the model, not of the run');
  const cancels = unknown.journal.filter((entry: any) => entry.tool === 'cancel_pending_order');
  t.equal(cancels.length, 2, 'the cancellation sent twice');
  const [lost, refused] = cancels;
  t.ok([0, 502, 504].includes(lost.status), 'the first one lost its answer: a reset connection, a 502 or a 504');
  t.same(hazardKinds(lost), ['unknown_outcome']);
  t.match(refused, { status: 409, hazards: [], problem: { code: 'order_not_pending' } }, 'the second was refused: the order was no longer pending');
  t.notOk(
    cancels.some((entry: any) => 'idempotency_key' in entry.args),
    'no idempotency key',
  );
  t.equal(unknown.journal.at(-1).tool, 'cancel_pending_order', 'no answer submitted');
  t.same(unknown.answers, [`I could not cancel order ${expected.order_id}: HTTP 409 Conflict.`], 'the turn ended in words');
  t.same(unknown.steps, [6], 'the sixth model request said it');
  t.same(unknown.cut, []);
  t.match(unknown.score, { state: { ok: true }, answer: { answered: false, ok: false }, contradicted_claims: [] }, 'cancelled, but unanswered');

  // What the model endpoint received.
  const first = fake.seen[0]!;
  t.equal(first.headers['authorization'], 'Bearer test-key', 'the key as a bearer token');
  t.equal(first.body.model, 'scripted/retail-1');
  t.equal(first.body.tool_choice, 'auto');
  t.equal(first.body.temperature, 0);
  t.same(
    first.body.messages.map((message: ChatMessage) => message.role),
    ['system', 'user'],
  );
  t.equal(
    first.body.messages[0].content,
    `${task.policy.trimEnd()}\n\n${nowLine(task.now)}\n\n${INSTRUCTION}`,
    "the policy, the instance's date, and the instruction as system message",
  );
  t.match(first.body.messages[0].content, /\n\nToday is \w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d UTC \(.+ local time\)\.\n\nUse the tools/);
  t.match(INSTRUCTION, /call submit_answer/, 'the instruction names submit_answer');
  t.equal(first.body.messages[1].content, task.request, "the instance's request as user message");
  t.match(task.request, `(email ${given.email})`);
  t.match(task.request, `pending order with the ${given.product} in it`);
  const listing = (await server.request('GET', `/s/${customer.session}/retail/tools?format=openai`)).body;
  t.same(first.body.tools, listing, "the tools are the task session's listing");
  t.same(first.body.tools.map((tool: any) => tool.function.name).sort(), [...task.tools, 'submit_answer'].sort(), "the domain's tools and submit_answer");
  t.ok(
    first.body.tools.every((tool: any) => tool.type === 'function'),
    'in the OpenAI format',
  );
  const submit = first.body.tools.find((tool: any) => tool.function.name === 'submit_answer').function.parameters;
  t.same(submit.required, ['order_id', 'refunds'], "submit_answer takes the answer's fields");
  t.same(Object.keys(submit.properties), [...Object.keys(task.answer_schemas[0].properties), 'message'], 'and a message');

  const noneRequests = fake.seen.slice(0, none.steps[0]);
  const afterParallel = noneRequests[3]!.body.messages as ChatMessage[];
  const parallel = afterParallel.findLast((message) => message.role === 'assistant') as any;
  t.equal(parallel.tool_calls.length, orders.length, 'one message carried a call per order');
  t.same(
    afterParallel.slice(-orders.length).map((message: any) => [message.role, message.tool_call_id]),
    parallel.tool_calls.map((call: any) => ['tool', call.id]),
    'each answered by a tool message with its tool_call_id, in order',
  );
  for (const seen of fake.seen) {
    const ids = new Set(
      (seen.body.messages as any[]).flatMap((message) => (message.role === 'assistant' ? (message.tool_calls ?? []).map((call: any) => call.id) : [])),
    );
    t.ok(
      toolMessages(seen).every((message) => ids.has(message.tool_call_id)),
      'every tool message answers a call of the conversation',
    );
  }
  t.equal(toolMessages(noneRequests[1]!)[0]!.content, `HTTP 200 OK\n${JSON.stringify(customer.user_id)}`, 'the status line, then the body');
  t.equal(
    fake.seen.length,
    runs.reduce((sum, run) => sum + run.steps[0]!, 0),
    'no request after a submitted answer',
  );
  const failures = fake.seen.flatMap((seen) => toolMessages(seen)).filter((message) => /^HTTP (429|5\d\d) /.test(message.content));
  t.ok(failures.length > 0, 'the model saw the failures');
  for (const message of failures.filter((message) => /^HTTP 429 /.test(message.content)))
    t.match(message.content, /^HTTP 429 Too Many Requests\nretry-after: \d+\n\n\S/, 'a 429 says when to retry');

  // The report.
  t.equal(report.title, 'wildtools eval: scripted/retail-1');
  t.same(report.tasks, { retail: 1 });
  t.same(report.model, { name: 'scripted/retail-1', base_url: fake.baseUrl, temperature: 0, max_steps: 30 });
  t.same(report.passes, { runs: 3, passed: 2, tasks: [{ task: 'retail/001', runs: 3, passed: 2 }] });
  t.same(report.matrix.errors, [], 'every run completed');
  t.match(report.matrix.cells, [{ domain: 'retail', condition: 'none', agent: 'scripted/retail-1', runs: 1, successes: 1, rate: 100 }]);
  t.same(
    report.matrix.drops.filter((drop) => drop.domain === 'all'),
    [
      { domain: 'all', kind: 'transient_failure', hazardFree: 100, underKind: 100, drop: 0 },
      { domain: 'all', kind: 'unknown_outcome', hazardFree: 100, underKind: 0, drop: 100 },
    ],
    "the model's drop per kind",
  );
  t.same(report.matrix.oracleFailures, []);
  t.same(report.runs, [
    { task: 'retail/001', seed: 1, condition: 'none', agent: 'scripted/retail-1', success: true, calls: orders.length + 4, retries: 0, steps: 5 },
    {
      task: 'retail/001',
      seed: 1,
      condition: 'unknown_outcome',
      agent: 'scripted/retail-1',
      success: false,
      why: 'answer: none submitted',
      calls: orders.length + 4,
      retries: unknown.score.retries,
      steps: 6,
    },
    {
      task: 'retail/001',
      seed: 1,
      condition: 'transient_failure',
      agent: 'scripted/retail-1',
      success: true,
      calls: transient.journal.length,
      retries: transient.score.retries,
      steps: transient.steps[0],
    },
  ]);
  const folder = t.testdir();
  const files = writeReport(folder, `eval-${modelSlug('scripted/retail-1')}`, report);
  t.equal(files.json, join(folder, 'eval-scripted-retail-1.json'));
  t.same(JSON.parse(readFileSync(files.json, 'utf8')).matrix, report.matrix, 'the JSON holds the matrix');
  const html = readFileSync(files.html, 'utf8');
  t.match(html, '<h1>wildtools eval: scripted/retail-1</h1>');
  t.match(html, 'Passed: <strong id="passed">2 of 3</strong>');
  t.match(html, "<h2>The scripted/retail-1's drop per domain and kind</h2>");
  t.match(html, '<tr class=""><td>all</td><td>unknown_outcome</td><td>100</td><td>0</td><td>100</td></tr>', 'a drop is not marked bad for a model');
  t.match(html, /<tr><td>retail\/001<\/td><td>unknown_outcome<\/td><td>scripted\/retail-1<\/td><td>/);
  t.notMatch(html, 'Oracle failures', 'no oracle in an eval');
  t.notMatch(html, 'test-key', 'the key is not in the report');
  t.match(matrixTable(report.matrix).split('\n')[0], /^domain {6}condition {15}tasks {2}scripted\/retail-1 %$/, 'the model is the table column');
  const text = evalSummary(report);
  t.match(text, 'unknown_outcome         100 → 0  (100)');
  t.match(text, 'failed runs (1):\n  retail/001#1 unknown_outcome: answer: none submitted\n');
  t.notMatch(text, 'not completed');
  t.match(text, 'passed 2 of 3 runs; per task: retail/001 2/3');
});

t.test('a model that skips the cancellation but submits it as done fails with a contradicted claim', async (t) => {
  const server = await startServer(t);
  const fake = await fakeEndpoint(t, retail001({ lie: true }));
  const dispatcher = new Agent();
  t.teardown(() => dispatcher.close());
  const { runs, report } = await runEval(dispatcher, server.origin, { baseUrl: fake.baseUrl, model: 'liar' }, { patterns: ['retail/001'], kinds: ['none'] });
  const { expected } = await instanceOf(server, 1);
  t.equal(runs.length, 1, '--kinds none: the hazard-free run only');
  const [run] = runs as [EvalRun];
  t.same(
    run.journal.map((entry: any) => entry.tool).filter((tool: string) => tool !== 'get_order_details'),
    ['find_user_id_by_email', 'get_user_details', 'submit_answer'],
    'no cancellation',
  );
  t.same(withoutMessage(run.journal.at(-1).args), expected, 'the answer it submitted is the expected one');
  t.match(run.journal.at(-1).args.message, `Order ${expected.order_id} is cancelled.`, 'and its words say it is done');
  t.equal(run.success, false);
  t.same(run.score.answer, { ok: true, answered: true, rule: 'typed', differences: [], missing: [], stated_but_excluded: [] }, 'every field as expected');
  t.same(run.score.contradicted_claims, ['order_id'], 'the claim the state contradicts');
  t.equal(run.score.state.ok, false, 'the order is not cancelled');
  t.ok(run.score.state.missing.length > 0, 'the expected writes are missing');
  t.match(report.runs[0], { seed: 1, success: false, why: /^state: missing [1-9]/ });
  t.equal(fake.seen[0]!.headers['authorization'], undefined, 'no key, no authorization');
  t.notOk('temperature' in fake.seen[0]!.body, 'no temperature unless given');
});

t.test('a model endpoint that keeps answering 500 leaves its run not completed, out of every rate; the suite goes on', async (t) => {
  const server = await startServer(t);
  const script = retail001();
  const fake = await fakeEndpoint(t, (body, index) => (index < 4 ? { status: 500, body: { error: { message: 'overloaded' } } } : script(body)));
  const dispatcher = new Agent();
  t.teardown(() => dispatcher.close());
  const waits: number[] = [];
  const { runs, report } = await runEval(
    dispatcher,
    server.origin,
    { baseUrl: `${fake.baseUrl}/`, model: 'flaky', sleep: async (ms) => void waits.push(ms) },
    { patterns: ['retail/001'], concurrency: 1, kinds: ['none', 'transient_failure'] },
  );
  const error = 'model endpoint: HTTP 500: {"error":{"message":"overloaded"}}, after 4 attempts';
  t.same(
    runs.map((run) => [run.condition, run.success, run.error]),
    [
      ['none', false, error],
      ['transient_failure', true, undefined],
    ],
    'the error, after 3 retries; the next run completed',
  );
  t.same(waits, [1000, 2000, 4000], 'a short backoff between attempts, through the injected sleep');
  t.same(runs[0]!.journal, [], 'no tool was called');
  t.equal(runs[0]!.score.success, false, 'the session was scored all the same');
  t.same(runs[0]!.answers, []);
  t.same(report.matrix.errors, [{ task: 'retail/001', seed: 1, condition: 'none', agent: 'flaky', error }], 'listed apart');
  t.same(
    report.matrix.cells.map((cell) => [cell.domain, cell.condition, cell.runs, cell.rate]),
    [
      ['retail', 'transient_failure', 1, 100],
      ['all', 'transient_failure', 1, 100],
    ],
    'left out of every rate: no hazard-free cell',
  );
  t.same(report.passes, { runs: 1, passed: 1, tasks: [{ task: 'retail/001', runs: 1, passed: 1 }] }, 'left out of the passes');
  t.match(report.runs, [
    { seed: 1, condition: 'none', success: false, why: `error: ${error}`, error },
    { condition: 'transient_failure', success: true },
  ]);
  const text = evalSummary(report);
  t.match(text, `runs not completed, left out of every rate (1):\n  retail/001#1 none: ${error}\n`);
  t.notMatch(text, 'failed runs', 'not among the failed runs');
  t.match(text, 'passed 1 of 1 runs; per task: retail/001 1/1');
  t.equal((await server.request('GET', '/sessions/e.flaky-1gn6s.retail.001.1.none')).status, 404, 'the session was deleted');
});

t.test('arguments that are not JSON, or not an object, unknown tool names and a wrong answer are answered without ending the turn', async (t) => {
  const server = await startServer(t);
  const fake = await fakeEndpoint(t, (body) =>
    body.messages.length === 2
      ? calls(
          0,
          ['find_user_id_by_email', '{"email": '],
          ['find_user_id_by_email', '["x"]'],
          ['../../sessions', {}],
          ['get_user_details', ''],
          ['submit_answer', { order_id: 5, refunds: [] }],
        )
      : say('Sorry, I could not do it.'),
  );
  const dispatcher = new Agent();
  t.teardown(() => dispatcher.close());
  const { runs } = await runEval(dispatcher, server.origin, { baseUrl: fake.baseUrl, model: 'garbled' }, { patterns: ['retail/001'], kinds: ['none'] });
  const tools = toolMessages(fake.seen[1]!);
  t.same(
    tools.map((message) => message.tool_call_id),
    ['call_0_0', 'call_0_1', 'call_0_2', 'call_0_3', 'call_0_4'],
  );
  t.match(tools[0]!.content, /^Invalid arguments: not valid JSON \(.+\)\. No call was made/);
  t.equal(tools[1]!.content, 'Invalid arguments: not a JSON object. No call was made; send the arguments as one JSON object.');
  t.equal(tools[2]!.content, 'Unknown tool "../../sessions": no call was made; call a tool of the listing.');
  t.match(tools[3]!.content, /^HTTP 400 Bad Request\n.*user_id/, 'empty arguments are {}: the call is made and refused');
  t.match(tools[4]!.content, /^HTTP 400 Bad Request\n.*"field":"order_id"/, 'an answer that does not fit its schema is refused, naming the field');
  t.same(
    runs[0]!.journal.map((entry: any) => [entry.tool, entry.status]),
    [
      ['get_user_details', 400],
      ['submit_answer', 400],
    ],
    'only the calls with usable arguments reached the server',
  );
  t.equal(fake.seen.length, 2, 'the refused answer did not end the turn: the model was asked again');
  t.same(runs[0]!.answers, ['Sorry, I could not do it.']);
  t.match(runs[0]!.score.answer, { answered: false, ok: false }, 'words end the turn unanswered');
  t.match(runs[0], { success: false, error: undefined });
});

t.test('the seeds: every task runs on each, in sessions named by it; the model reads each instance from its words', async (t) => {
  const server = await startServer(t);
  const fake = await fakeEndpoint(t, retail001());
  const dispatcher = new Agent();
  t.teardown(() => dispatcher.close());
  const { runs, report } = await runEval(
    dispatcher,
    server.origin,
    { baseUrl: fake.baseUrl, model: 'seeded' },
    { patterns: ['retail/001'], kinds: ['none'], seeds: [1, 2], concurrency: 2 },
  );
  t.same(
    runs.map((run) => [run.seed, run.condition, run.session, run.success]),
    [
      [1, 'none', 'e.seeded-1mv5u.retail.001.1.none', true],
      [2, 'none', 'e.seeded-1mv5u.retail.001.2.none', true],
    ],
    'one run per seed, in seed order',
  );
  const [one, two] = await Promise.all([instanceOf(server, 1), instanceOf(server, 2)]);
  t.notSame(one.given, two.given, 'two instances');
  t.notSame(one.expected, two.expected, 'with two answers');
  t.same(
    runs.map((run) => withoutMessage(run.journal.at(-1).args)),
    [one.expected, two.expected],
    "each run submitted its instance's answer",
  );
  const requests = await Promise.all([1, 2].map(async (seed) => (await server.request('GET', `/tasks/retail/001?seed=${seed}`)).body.request));
  t.same(
    runs.map((run) => run.messages[1]!.content),
    requests,
    "each conversation starts from its instance's request",
  );
  t.same(
    fake.seen
      .filter((seen) => seen.body.messages.length === 2)
      .map((seen) => seen.body.messages[1].content)
      .sort(),
    [...requests].sort(),
    'the endpoint received both',
  );
  t.match(report.runs, [
    { seed: 1, success: true },
    { seed: 2, success: true },
  ]);
  t.same(report.passes, { runs: 2, passed: 2, tasks: [{ task: 'retail/001', runs: 2, passed: 2 }] }, 'a task counted once per seed');
  t.same(report.tasks, { retail: 1 });

  const details = taskDetails(dispatcher, server.origin);
  const first = details('retail/001', 1);
  t.equal(details('retail/001', 1), first, 'an instance is fetched once');
  t.not(details('retail/001', 2), first, 'per seed');
  t.match(await first, { id: 'retail/001', seed: 1, request: requests[0], given: one.given });
  t.match(await details('retail/001', 2), { seed: 2, request: requests[1], given: two.given });
});

t.test('two models on the same task and seed meet the same faults; a run set up by hand too', async (t) => {
  const server = await startServer(t);
  const fake = await fakeEndpoint(t, retail001());
  const dispatcher = new Agent();
  t.teardown(() => dispatcher.close());
  const options = { patterns: ['retail/001'], kinds: ['transient_failure', 'default'] };
  const [a, b] = await Promise.all(
    ['model-a', 'model-b'].map(async (model) => (await runEval(dispatcher, server.origin, { baseUrl: fake.baseUrl, model }, options)).runs),
  );
  t.same(
    [...a!, ...b!].map((run) => run.session),
    [
      'e.model-a-0w6fk.retail.001.1.transient_failure',
      'e.model-a-0w6fk.retail.001.1.default',
      'e.model-b-1clwm.retail.001.1.transient_failure',
      'e.model-b-1clwm.retail.001.1.default',
    ],
    'each model in its own sessions',
  );
  for (const [i, run] of a!.entries()) {
    const other = b![i]!;
    t.ok(
      run.journal.some((entry: any) => entry.hazards.length > 0),
      `${run.condition}: faults were drawn`,
    );
    t.equal(comparableJournal(run.journal), comparableJournal(other.journal), `${run.condition}: the same journal for both models`);
    t.same(run.score, { ...other.score, session: run.session }, `${run.condition}: the same score`);
  }
  const [transient, all] = a as [EvalRun, EvalRun];
  t.same([...new Set(all.journal.flatMap(hazardKinds))].sort(), ['transient_failure', 'unknown_outcome'], 'default: every target of the task on together');
  t.same(all.score.hazards.map((hazard: any) => [hazard.kind, hazard.tool]).sort(), [
    ['transient_failure', 'get_order_details'],
    ['unknown_outcome', 'cancel_pending_order'],
  ]);
  t.equal(all.success, false, 'the model has no idempotency key: it fails under default');
  t.equal(transient.success, true);

  const task = await taskDetails(dispatcher, server.origin)('retail/001', 1);
  const setup = await runModel(
    dispatcher,
    server.origin,
    task,
    'by hand',
    { baseUrl: fake.baseUrl, model: 'model-c' },
    { keep: true },
    { session: 'e.by-hand', kinds: ['transient_failure'] },
  );
  t.match(setup, { session: 'e.by-hand', seed: 1, condition: 'by hand', success: true }, "the session and kinds as set up, the seed the instance's");
  t.match(setup.score, { session: 'e.by-hand', seed: 1 });
  t.equal(comparableJournal(setup.journal), comparableJournal(transient.journal), 'another session id, the same faults');
  t.equal((await server.request('GET', '/sessions/e.by-hand')).status, 200, 'kept');
  t.equal((await server.request('GET', '/sessions/e.model-a-0w6fk.retail.001.1.default')).status, 404, 'the others were deleted once scored');
});

const io = (
  script: (messages: readonly ChatMessage[], n: number) => any,
  answers: string[] = [],
  status = (_tool: string, _args: Record<string, unknown>) => 200,
) => {
  let n = 0;
  const seen: ChatMessage[][] = [];
  const listings = { read: 0 };
  const tools: (readonly unknown[])[] = [];
  const called: string[] = [];
  return {
    seen,
    tools,
    answers,
    listings,
    called,
    io: {
      complete: async (messages: readonly ChatMessage[], listed: readonly unknown[]) => {
        seen.push(messages.map((message) => ({ ...message })));
        tools.push(listed);
        return { role: 'assistant' as const, ...script(messages, n++) };
      },
      listing: async () => [{ type: 'function', function: { name: `lookup${listings.read++}` } }],
      call: async (tool: string, args: Record<string, unknown>) => {
        called.push(tool);
        return { status: status(tool, args), headers: {}, body: null, text: JSON.stringify({ tool, args }) };
      },
      answer: async (text: string) => void answers.push(text),
    },
  };
};

const NOW = '2024-05-15T15:00:00-05:00';
const SYSTEM = `# Policy\n\nToday is Wed, 15 May 2024 20:00:00 UTC (${NOW} local time).\n\n${INSTRUCTION}`;
const call = (id: string, name: string, args: object | string = {}) => ({
  id,
  type: 'function',
  function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
});

t.test('the turn loop in words (answer_schemas null): follow-ups as new user messages of the same conversation, the step limit, errors', async (t) => {
  const task = { policy: '# Policy\n', request: 'first', follow_ups: ['second', 'third'], now: NOW, answer_schemas: [null, null, null] };
  const fake = io((messages, n) => {
    const turn = messages.filter((message) => message.role === 'user').at(-1)!.content;
    const last = messages.at(-1)!;
    if (turn === 'first' && last.role === 'user') return { content: null, tool_calls: [call(`c${n}`, 'lookup', { q: 1 })] };
    if (turn === 'first') return { content: 'answer one' };
    if (turn === 'second') return { content: 'answer two' };
    // The third turn never ends: it says something, then nothing, while calling tools.
    return { content: n === 3 ? 'thinking' : '', tool_calls: [call(`c${n}`, 'lookup')] };
  });
  const conversation = await converse(task, fake.io, 3);
  t.same(conversation.answers, ['answer one', 'answer two', 'thinking'], 'a turn cut at the step limit answers what the model last said');
  t.same(fake.answers, conversation.answers, 'each answer was posted, in turn order');
  t.same(conversation.steps, [2, 1, 3]);
  t.same(conversation.cut, [3]);
  t.equal(conversation.error, undefined);
  t.same(
    conversation.messages.map((message) => (message.role === 'user' ? `user:${message.content}` : message.role)),
    [
      'system',
      'user:first',
      'assistant',
      'tool',
      'assistant',
      'user:second',
      'assistant',
      'user:third',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'tool',
    ],
    'one conversation',
  );
  t.equal(conversation.messages[0]!.content, SYSTEM, 'the policy, the date, the instruction');
  t.equal((conversation.messages[3] as any).content, 'HTTP 200 OK\n{"tool":"lookup","args":{"q":1}}');
  t.equal(fake.seen[1]!.length, 4, 'the second request carries the tool result');
  t.equal(fake.listings.read, 6, 'the listing re-read before each of the six model requests');
  t.same(
    fake.tools.map((tools: any) => tools[0].function.name),
    ['lookup0', 'lookup1', 'lookup2', 'lookup3', 'lookup4', 'lookup5'],
    'each request carries the listing as it was just read',
  );

  const silent = io(() => ({ content: null, tool_calls: [call('c', 'lookup')] }));
  const cut = await converse({ ...task, follow_ups: [] }, silent.io, 2);
  t.same(cut.answers, [''], 'a model that never said anything answers nothing');
  t.same(silent.answers, ['']);

  const failing = io((_messages, n) => {
    if (n === 1) throw new ModelError('model endpoint: HTTP 503, after 4 attempts');
    return { content: 'done' };
  });
  const broken = await converse(task, failing.io, 30);
  t.equal(broken.error, 'model endpoint: HTTP 503, after 4 attempts', 'the error ends the conversation');
  t.same(broken.answers, ['done'], 'the turns before it are answered');
  t.same(failing.answers, ['done']);

  const plain = await converse({ ...task, follow_ups: [] }, io(() => ({ content: null })).io, 5);
  t.same(plain.answers, [''], 'a message with neither content nor tool calls is an empty final answer');
});

t.test('the turn loop with typed answers: a turn ends when submit_answer is answered 200; words or the step limit leave it unanswered and stop', async (t) => {
  const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
  const task = { policy: '# Policy', request: 'first', follow_ups: ['second', 'third'], now: NOW, answer_schemas: [schema, schema, schema] };
  // submit_answer without `n` is refused as the server refuses an answer that does not fit its schema.
  const status = (tool: string, args: Record<string, unknown>) => (tool === 'submit_answer' && typeof args['n'] !== 'number' ? 400 : 200);
  const fake = io(
    (messages, n) => {
      const turn = messages.filter((message) => message.role === 'user').at(-1)!.content;
      if (turn === 'first' && n === 0) return { content: 'Looking.', tool_calls: [call('a', 'lookup'), call('b', 'submit_answer', { n: 'one' })] };
      if (turn === 'first') return { content: null, tool_calls: [call('c', 'submit_answer', { n: 1, message: 'One.' }), call('d', 'lookup')] };
      if (turn === 'second') return { content: 'I cannot answer that.' };
      return { content: null, tool_calls: [call('e', 'submit_answer', { n: 3 })] };
    },
    [],
    status,
  );
  const conversation = await converse(task, fake.io, 30);
  t.equal(conversation.error, undefined);
  t.same(fake.called, ['lookup', 'submit_answer', 'submit_answer', 'lookup'], 'every call of a message runs, the answer among them');
  t.same(conversation.steps, [2, 1], 'a refused answer (400) does not end the turn; one answered 200 does');
  t.same(conversation.cut, [], 'neither turn was cut');
  t.same(conversation.answers, ['Looking.', 'I cannot answer that.'], 'the words of each turn');
  t.same(fake.answers, [], 'a typed turn posts no words: its answer is the submit_answer call');
  t.same(
    conversation.messages.map((message) => (message.role === 'user' ? `user:${message.content}` : message.role)),
    ['system', 'user:first', 'assistant', 'tool', 'tool', 'assistant', 'tool', 'tool', 'user:second', 'assistant'],
    'the second turn ended in words without an answer: the third request was never sent',
  );
  t.match((conversation.messages[4] as any).content, /^HTTP 400 Bad Request\n/);
  t.match((conversation.messages[6] as any).content, /^HTTP 200 OK\n/);

  const looping = io((_messages, n) => ({ content: n === 0 ? 'Let me look.' : null, tool_calls: [call(`l${n}`, 'lookup')] }));
  const cut = await converse(task, looping.io, 2);
  t.same(cut.steps, [2]);
  t.same(cut.cut, [1], 'cut at the step limit');
  t.same(cut.answers, ['Let me look.']);
  t.equal(cut.messages.filter((message) => message.role === 'user').length, 1, 'an unanswered typed turn ends the conversation');
  t.same(looping.answers, []);

  const garbled = io((_messages, n) =>
    n === 0 ? { content: null, tool_calls: [call('g', 'submit_answer', '{"n":')] } : { content: null, tool_calls: [call('h', 'submit_answer', { n: 2 })] },
  );
  const second = await converse({ ...task, follow_ups: [] }, garbled.io, 30);
  t.same(second.steps, [2], 'an answer whose arguments are not JSON was never made: the turn goes on');
  t.same(garbled.called, ['submit_answer']);

  const mixed = io((messages) => {
    const turn = messages.filter((message) => message.role === 'user').at(-1)!.content;
    return turn === 'first' ? { content: null, tool_calls: [call('s', 'submit_answer', { n: 1 })] } : { content: 'in words' };
  });
  const both = await converse({ ...task, follow_ups: ['second'], answer_schemas: [schema, null] }, mixed.io, 30);
  t.same(both.answers, ['', 'in words']);
  t.same(mixed.answers, ['in words'], 'a turn answered in words still posts its text');
});

t.test('what a tool message says: status line and body, or a failed connection; arguments parsed; the date', async (t) => {
  t.equal(toolResult({ status: 503, headers: {}, body: '', text: '<html>down</html>' }), 'HTTP 503 Service Unavailable\n<html>down</html>');
  t.equal(toolResult({ status: 299, headers: {}, body: '', text: '{}' }), 'HTTP 299\n{}', 'a status without a standard text');
  t.equal(
    toolResult({ status: 429, headers: { 'retry-after': '2', 'x-request-id': 'r1', link: ['<a>', '<b>'] }, body: '', text: 'slow' }),
    'HTTP 429 Too Many Requests\nretry-after: 2\nlink: <a>, <b>\n\nslow',
    'the headers that tell an agent what to do, then a blank line; the others left out',
  );
  t.equal(toolResult({ status: 0, headers: {}, body: undefined, text: '' }), 'Connection failed: the connection closed without a complete HTTP answer.');
  t.same(parseArguments(' '), { args: {} });
  t.same(parseArguments('{"a":1}'), { args: { a: 1 } });
  t.match(parseArguments('null'), { error: /not a JSON object/ });
  t.equal(nowLine(NOW), 'Today is Wed, 15 May 2024 20:00:00 UTC (2024-05-15T15:00:00-05:00 local time).');
  t.equal(nowLine('2025-01-01T00:00:00Z'), 'Today is Wed, 01 Jan 2025 00:00:00 UTC (2025-01-01T00:00:00Z local time).');
});

t.test('the model endpoint client: retries, refusals, broken answers, odd tool calls', async (t) => {
  const dispatcher = new Agent();
  t.teardown(() => dispatcher.close());
  const answers: Answer[] = [
    { status: 429, body: 'slow down', headers: { 'retry-after': '2' } },
    reply({ content: 'ok' }),
    { status: 401, body: { error: 'bad key' } },
    { status: 200, body: 'not json' },
    { status: 200, body: { choices: [] } },
    reply({ content: [{ type: 'text', text: 'parts' }], tool_calls: [{ function: { name: 'lookup', arguments: { q: 1 } } }, { id: 'b', function: {} }] }),
    reply({ content: 'x', tool_calls: [] }),
  ];
  const fake = await fakeEndpoint(t, (_body, index) => answers[index]!);
  const waits: number[] = [];
  const model = { baseUrl: fake.baseUrl, model: 'm', sleep: async (ms: number) => void waits.push(ms) };
  t.same(await complete(dispatcher, model, [], []), { role: 'assistant', content: 'ok' }, 'a 429 is retried');
  t.same(waits, [2000], 'after the wait Retry-After asks');
  await t.rejects(complete(dispatcher, model, [], []), new ModelError('model endpoint answered HTTP 401: {"error":"bad key"}'), 'a 4xx is not retried');
  await t.rejects(complete(dispatcher, model, [], []), { message: 'model endpoint answered a body that is not JSON: not json' });
  await t.rejects(complete(dispatcher, model, [], []), { message: 'model endpoint answered no message: {"choices":[]}' });
  t.same(
    await complete(dispatcher, model, [], []),
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":1}' } },
        { id: 'b', type: 'function', function: { name: '', arguments: '' } },
      ],
    },
    'tool calls put back in the standard shape',
  );
  t.same(await complete(dispatcher, model, [], []), { role: 'assistant', content: 'x' }, 'an empty list of tool calls is none');
  answers.push({ status: 503, body: 'busy', headers: { 'retry-after': '0' } }, reply({ content: 'timer' }));
  t.same(
    await complete(dispatcher, { baseUrl: fake.baseUrl, model: 'm' }, [], []),
    { role: 'assistant', content: 'timer' },
    'the default sleep: a timer (Retry-After: 0)',
  );
  t.equal(fake.seen.length, 9, 'one request per answer: the 4xx and the broken answers were not retried');

  const closed = { baseUrl: 'http://127.0.0.1:1', model: 'm', retries: 1, sleep: async () => {} };
  await t.rejects(
    complete(dispatcher, closed, [], []),
    { message: /^model endpoint: no answer \(ECONNREFUSED\), after 2 attempts$/ },
    'a refused connection is retried',
  );

  t.equal(backoff(1, undefined), 1000);
  t.equal(backoff(3, undefined), 4000);
  t.equal(backoff(1, ['5']), 5000);
  t.equal(backoff(1, '600'), 60_000, 'a minute at most');
  t.equal(backoff(2, 'Wed, 21 Oct 2015 07:28:00 GMT'), 2000, 'a date is not a number of seconds');
});

t.test('runs that the server refuses fail with the error; conditions and names', async (t) => {
  const server = await startServer(t);
  const dispatcher = new Agent();
  t.teardown(() => dispatcher.close());
  const model = { baseUrl: 'http://127.0.0.1:1', model: 'm' };
  const ghost = { id: 'retail/999', domain: 'retail', targets: [], policy: '', request: 'hi', follow_ups: [], seed: 1, now: NOW, answer_schemas: [null] };
  const run = await runModel(dispatcher, server.origin, ghost, 'none', model, { keep: true });
  t.match(run, { session: 'e.m-0remw.retail.999.1.none', seed: 1, success: false, score: null, error: /^POST \/sessions answered 404: .*unknown_task/ });
  await t.rejects(taskDetails(dispatcher, server.origin)('retail/999', 1), { message: /^GET \/tasks\/retail\/999\?seed=1 answered 404: / });
  t.equal(evalSession('retail/001', 1, 'transient_failure'), 'e.retail.001.1.transient_failure');
  t.equal(
    evalSession('smart-home/028', 7, 'eventual_consistency', 'Meta-Llama/Llama-3.1-70B-Instruct'),
    'e.meta-llama-1qccc.smart-home.028.7.eventual_consistency',
    'the model slug cut to 16 characters, without dots',
  );
  t.equal(evalSession('smart-home/028', 2_147_483_647, 'eventual_consistency', 'Meta-Llama/Llama-3.1-70B-Instruct').length, 64, 'at most 64 characters');
  await t.rejects(runEval(dispatcher, server.origin, model, { patterns: ['nowhere/*'] }), {
    message: 'no task and condition selected: no task matches "nowhere/*" (GET /tasks lists the ids; a pattern takes *, ? and [set])',
  });
  await t.rejects(runEval(dispatcher, server.origin, model, { kinds: ['bogus'] }), {
    message: /^no task and condition selected: none of the \d+ tasks matched is played under kinds bogus/,
  });
  await t.rejects(
    runEval(dispatcher, server.origin, model, { patterns: ['retail/001'], seeds: [] }),
    { message: 'no task and condition selected: no seed given' },
    'no seed, no run',
  );

  const task = {
    id: 'retail/001',
    domain: 'retail',
    targets: [
      { kind: 'a', tool: 'x' },
      { kind: 'b', tool: 'y' },
      { kind: 'a', tool: 'z' },
    ],
  };
  t.same(evalConditions(task, ['none', 'all']), ['none', 'a', 'b']);
  t.same(evalConditions(task, ['none']), ['none']);
  t.same(evalConditions(task, ['b', 'c']), ['b'], 'kinds the task does not target are left out');
  t.same(evalConditions(task, ['default', 'none', 'all']), ['none', 'a', 'b', 'default'], 'default: all its targets together, last');
  t.same(evalConditions(task, ['default']), ['default']);
  t.same(evalConditions({ ...task, targets: [] }, ['none', 'all', 'default']), ['none'], 'a task without targets has no default');
  t.same(
    evalConditions({ ...task, targets: [{ kind: 'a', tool: 'x' }] }, ['none', 'all', 'default']),
    ['none', 'a'],
    'nor one with one target: its kind alone is it',
  );
  t.equal(modelSlug('meta-llama/Llama-3.1-8B-Instruct'), 'meta-llama-llama-3.1-8b-instruct');
  t.equal(modelSlug('gpt-4o-mini'), 'gpt-4o-mini');
  t.equal(modelSlug('///'), 'model');

  const report = evalReport(model, 30, [], [{ ...run, journal: [] }]);
  t.match(report.runs, [{ seed: 1, success: false, calls: 0, retries: 0, steps: 0, why: /^error: POST \/sessions/ }]);
  t.same(report.passes, { runs: 0, passed: 0, tasks: [] }, 'a run not completed is no pass and no failure');
  t.match(report.matrix.errors, [{ task: 'retail/999', seed: 1, condition: 'none', agent: 'm', error: /^POST \/sessions answered 404/ }]);
  t.same(report.matrix.cells, []);
  t.notOk('temperature' in report.model!, 'no temperature unless given');
});

t.test('the matrix and report take any agent names; the validity agents keep their layout', async (t) => {
  const run = (agent: string, condition: string, success: boolean) => ({
    task: 'retail/001',
    domain: 'retail',
    seed: 1,
    condition,
    agent,
    success,
    score: {},
    journal: [],
  });
  const validity = summarise([run('oracle', 'none', true), run('naive', 'none', true), run('oracle', 'k', true), run('naive', 'k', false)]);
  t.equal(
    matrixTable(validity),
    [
      'domain      condition               tasks  oracle %  naive %',
      'all         k                       1      100       0',
      'all         none                    1      100       100',
      'retail      k                       1      100       0',
      'retail      none                    1      100       100',
    ].join('\n'),
  );
  const html = reportHtml({ title: 'v', tasks: { retail: 1 }, matrix: validity, runs: [] });
  t.match(html, 'Oracle failures: <strong id="oracle-failures">0</strong>');
  t.match(html, "<h2>The naive agent's drop per domain and kind</h2>");
  t.match(html, '<tr class=""><td>all</td><td>k</td><td>100</td><td>0</td><td>100</td></tr>');
  t.match(html, '<rect fill="#2a6" x="170" y="30" width="300" height="10"><title>oracle 100%</title></rect>');
  t.match(html, '<rect fill="#d63" x="170" y="67" width="0" height="10"><title>naive 0%</title></rect>');
  t.match(html, '100% / 0%');
  const weak = summarise([run('naive', 'none', true), run('naive', 'k', true)]);
  t.match(reportHtml({ title: 'v', tasks: {}, matrix: weak, runs: [] }), '<tr class="bad"><td>all</td><td>k</td>', 'a naive drop under 50 points is marked');

  const three = summarise([run('a', 'none', true), run('b', 'none', false), run('<c>', 'none', true), run('a', 'k', false), run('b', 'k', true)], 'b');
  t.same(matrixTable(three).split('\n').slice(0, 3), [
    'domain      condition               tasks  a %       b %       <c> %',
    'all         k                       1      0         100       -',
    'all         none                    1      100       0         100',
  ]);
  t.same(
    three.drops,
    [
      { domain: 'retail', kind: 'k', hazardFree: 0, underKind: 100, drop: -100 },
      { domain: 'all', kind: 'k', hazardFree: 0, underKind: 100, drop: -100 },
    ],
    'the drop of the agent named',
  );
  const page = reportHtml({
    title: 't',
    tasks: {},
    dropsOf: 'b',
    model: { name: 'b', base_url: 'http://m', max_steps: 3 },
    determinism: { identical: false, runs: 5, differing: [] },
    matrix: three,
    runs: [{ task: 'retail/001', condition: 'none', agent: 'b', success: false, calls: 0, retries: 0 }],
  });
  t.match(page, '<p id="model">Model <strong>b</strong> at http://m, at most 3 model requests per turn.</p>');
  t.match(page, '<strong id="determinism">different</strong> (5 runs)');
  t.match(page, '<tr><td>retail/001</td><td>none</td><td>b</td><td></td></tr>');
  t.equal(page.match(/<rect /g)?.length, 6, 'one bar per agent and kind');
  t.match(page, '<tspan fill="#36c">■ &#60;c&#62;</tspan>', 'agent names escaped');
  t.match(page, 'height="10"><title>&#60;c&#62; 100%</title>');
  t.match(page, "<h2>The b's drop per domain and kind</h2>");
});

t.test('the command-line options', async (t) => {
  const base = ['--base-url', 'http://127.0.0.1:9/v1', '--model', 'm'];
  t.same(evalFlags(base, {}), {
    baseUrl: 'http://127.0.0.1:9/v1',
    model: 'm',
    tasks: [],
    kinds: ['none', 'all'],
    seeds: [1],
    concurrency: 4,
    maxSteps: 30,
    out: 'reports',
    temperature: 0,
  });
  t.same(
    evalFlags(
      [
        ...base,
        '--tasks',
        'retail/*,airline/001',
        '--tasks=weather/*',
        '--kinds',
        'none,default',
        '--seeds',
        '1,2,3',
        '--concurrency=2',
        '--max-steps',
        '5',
        '--server',
        'http://s',
        '--out',
        'o',
        '--temperature',
        '0.5',
      ],
      { OPENAI_API_KEY: 'env-key' },
    ),
    {
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'm',
      apiKey: 'env-key',
      tasks: ['retail/*', 'airline/001', 'weather/*'],
      kinds: ['none', 'default'],
      seeds: [1, 2, 3],
      concurrency: 2,
      maxSteps: 5,
      server: 'http://s',
      out: 'o',
      temperature: 0.5,
    },
  );
  t.same(evalFlags([...base, '--seeds=42'], {}).seeds, [42], '--seeds=N');
  t.equal(evalFlags([...base, '--api-key=k=1'], { OPENAI_API_KEY: 'env-key' }).apiKey, 'k=1', '--api-key wins over the environment, = kept');
  t.throws(() => evalFlags(['--model', 'm'], {}), /--base-url and --model are required\nusage: npm run eval/);
  t.throws(() => evalFlags([...base, '--bogus'], {}), /unknown option --bogus/);
  t.throws(() => evalFlags([...base, '--model'], {}), /--model needs a value/);
  t.throws(() => evalFlags([...base, '--seeds'], {}), /--seeds needs a value\nusage: .*\[--seeds 1,2,3\]/);
  for (const seeds of ['', '1,,2', '1,', 'x', '-1', '1.5', '1 2'])
    t.throws(() => evalFlags([...base, '--seeds', seeds], {}), {
      message: `--seeds takes whole numbers from 0 to 2147483647 separated by commas, not ${JSON.stringify(seeds)}`,
    });
  t.throws(() => evalFlags([...base, '--concurrency', '0'], {}), /--concurrency takes a whole number from 1, not "0"/);
  t.throws(() => evalFlags([...base, '--max-steps', '2.5'], {}), /--max-steps takes a whole number/);
  t.throws(() => evalFlags([...base, '--temperature', 'hot'], {}), /--temperature takes a number, not "hot"/);
  t.throws(() => evalFlags([...base, '--temperature', ''], {}), /--temperature takes a number/);
});

t.test('why a run failed, in one line', async (t) => {
  const score = (over: object) => ({
    state: { ok: true, missing: [], unexpected: [], different: [] },
    answer: { ok: true, missing: [], stated_but_excluded: [] },
    traps: [],
    ...over,
  });
  const run = (over: object) => ({ task: 't', domain: 'd', seed: 1, condition: 'none', agent: 'a', success: false, journal: [], score: score({}), ...over });
  const typed = (over: object) => ({ ok: false, answered: true, rule: 'typed', differences: [], missing: [], stated_but_excluded: [], ...over });
  t.equal(whyFailed(run({ error: 'boom', blocked: 'x' })), 'error: boom');
  t.equal(whyFailed(run({ blocked: 'x answered 502' })), 'blocked: x answered 502');
  t.equal(
    whyFailed(run({ score: score({ state: { ok: false, missing: [{}], unexpected: [], different: ['a'] } }) })),
    'state: missing 1, unexpected 0, different ["a"]',
  );
  t.equal(whyFailed(run({ score: score({ answer: typed({ answered: false }) }) })), 'answer: none submitted');
  t.equal(
    whyFailed(run({ score: score({ answer: typed({ differences: [{ turn: 1, path: 'refunds', expected: [], got: [{}] }] }) }) })),
    'answer: differs at [{"turn":1,"path":"refunds","expected":[],"got":[{}]}]',
  );
  t.equal(
    whyFailed(run({ score: score({ answer: { ok: false, missing: ['a'], stated_but_excluded: [] } }) })),
    'answer: missing ["a"], excluded []',
    'an answer in words',
  );
  t.equal(whyFailed(run({ score: score({ traps: [{ seq: 1 }] }) })), 'traps: [{"seq":1}]');
  t.equal(whyFailed(run({})), 'failed');
});

t.test('the validity matrix of retail/001 on seed 1: the oracle always succeeds, the naive agent drops under every kind', async (t) => {
  const server = await startServer(t);
  const dispatcher = new Agent();
  t.teardown(() => dispatcher.close());
  const { report, runs } = await validity(dispatcher, server.origin, plans, { patterns: ['retail/001'], concurrency: 4, seeds: [1] });
  t.equal(
    matrixTable(report.matrix),
    [
      'domain      condition               tasks  oracle %  naive %',
      'all         all@0.5                 1      100       -',
      'all         all@1                   1      100       -',
      'all         default                 1      100       -',
      'all         none                    1      100       100',
      'all         transient_failure       1      100       0',
      'all         unknown_outcome         1      100       0',
      'retail      all@0.5                 1      100       -',
      'retail      all@1                   1      100       -',
      'retail      default                 1      100       -',
      'retail      none                    1      100       100',
      'retail      transient_failure       1      100       0',
      'retail      unknown_outcome         1      100       0',
    ].join('\n'),
  );
  t.same(report.determinism, { identical: true, runs: 9, differing: [], concurrency: 4, via: 'http' });
  t.same(report.matrix.oracleFailures, []);
  t.same(
    runs.map((run) => [run.seed, run.condition, run.agent]),
    [
      ...['none', 'unknown_outcome', 'transient_failure'].flatMap((condition) => [
        [1, condition, 'oracle'],
        [1, condition, 'naive'],
      ]),
      [1, 'default', 'oracle'],
      [1, 'all@0.5', 'oracle'],
      [1, 'all@1', 'oracle'],
    ],
  );
  t.match(report.runs[3], { seed: 1, condition: 'unknown_outcome', agent: 'naive', why: /^blocked: cancel_pending_order/ });
  await t.rejects(runMatrix(dispatcher, server.origin, [{ id: 'retail/999', domain: 'retail', targets: [] }], plans, 1), { message: 'no plan for retail/999' });
});

/** Runs scripts/eval.ts to its end: exit code and output. */
function runCli(args: readonly string[], cwd: string): Promise<{ code: number | null; output: string }> {
  const script = new URL('../../scripts/eval.ts', import.meta.url).pathname;
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd,
    env: { ...process.env, OPENAI_API_KEY: '', _TAPJS_PROCESSINFO_COVERAGE_: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

t.test('npm run eval: an in-process server or a running one, on the seeds given; the table printed, the report written', async (t) => {
  const fake = await fakeEndpoint(t, retail001());
  const folder = t.testdir();
  const inProcess = await runCli(
    ['--base-url', fake.baseUrl, '--model', 'Scripted 1', '--tasks', 'retail/001', '--kinds', 'none,transient_failure', '--seeds', '1,2', '--out', 'out'],
    folder,
  );
  t.equal(inProcess.code, 0, inProcess.output);
  t.match(inProcess.output, /domain {6}condition {15}tasks {2}Scripted 1 %\nall {9}none {20}2 {6}100\n/, 'two runs per condition: one per seed');
  t.match(inProcess.output, 'passed 4 of 4 runs; per task: retail/001 4/4');
  t.match(inProcess.output, `wrote ${join('out', 'eval-scripted-1.json')} and ${join('out', 'eval-scripted-1.html')}`);
  t.ok(existsSync(join(folder, 'out', 'eval-scripted-1.html')));
  const written = JSON.parse(readFileSync(join(folder, 'out', 'eval-scripted-1.json'), 'utf8'));
  t.same(written.passes.passed, 4);
  t.same(
    written.runs.map((run: any) => [run.seed, run.condition]),
    [
      [1, 'none'],
      [1, 'transient_failure'],
      [2, 'none'],
      [2, 'transient_failure'],
    ],
  );

  const server = await startServer(t);
  const failing = await fakeEndpoint(t, () => ({ status: 400, body: { error: 'no such model' } }));
  const running = await runCli(
    ['--server', `${server.origin}/`, '--base-url', failing.baseUrl, '--model', 'nope', '--tasks', 'retail/001', '--kinds', 'none', '--out', 'out'],
    folder,
  );
  t.equal(running.code, 1, 'exit 1 when a run could not be completed');
  t.match(running.output, /runs not completed, left out of every rate \(1\):\n {2}retail\/001#1 none: model endpoint answered HTTP 400/);
  t.match(running.output, 'passed 0 of 0 runs');
  t.equal(failing.seen.length, 1, 'the running server served the tasks');

  const usage = await runCli(['--model', 'm'], folder);
  t.equal(usage.code, 2);
  t.match(usage.output, /--base-url and --model are required/);

  // Patterns the command cannot use: said in one line with exit 2, never a stack trace.
  for (const [pattern, said] of [
    ['retail/9[9]9', 'no task matches "retail/9[9]9"'],
    ['retail/00[12', 'task pattern "retail/00[12": "[" at 10 has no closing "]"'],
  ] as const) {
    const mistaken = await runCli(['--base-url', fake.baseUrl, '--model', 'm', '--tasks', pattern, '--out', 'out'], folder);
    t.equal(mistaken.code, 2, pattern);
    t.match(mistaken.output, said);
    t.notMatch(mistaken.output, /\n\s+at /, `${pattern}: no stack trace`);
  }
});

t.test('two models whose names begin alike keep to their own sessions', async (t) => {
  const a = evalSession('retail/001', 1, 'none', 'meta-llama/Llama-3.1-8B-Instruct');
  const b = evalSession('retail/001', 1, 'none', 'meta-llama/Llama-3.1-70B-Instruct');
  t.not(a, b);
  t.match(a, /^e\.meta-llama-[0-9a-z]{5}\.retail\.001\.1\.none$/);
});

t.test('an instance the server will not show is a run left out of every rate, and the eval goes on', async (t) => {
  const server = await startServer(t);
  const dispatcher = new Agent();
  t.teardown(() => dispatcher.close());
  const fake = await fakeEndpoint(t, () => say('Nothing to do.'));
  const { runs, report } = await runEval(
    dispatcher,
    server.origin,
    { baseUrl: fake.baseUrl, model: 'm' },
    { patterns: ['retail/001'], kinds: ['none'], seeds: [1, 2_147_483_648] },
  );
  t.same(
    runs.map((run) => [run.seed, run.error === undefined]),
    [
      [1, true],
      [2_147_483_648, false],
    ],
  );
  t.match(runs[1]!.error, /GET \/tasks\/retail\/001\?seed=2147483648 answered 400/);
  t.same(
    report.matrix.errors.map((error) => error.seed),
    [2_147_483_648],
  );
  t.same(report.passes?.runs, 1, 'only the completed run counts');
  t.throws(() => evalFlags(['--base-url', 'x', '--model', 'm', '--seeds', '2147483648'], {}), /from 0 to 2147483647/);
});

t.test("a kind's drop counts only instances whose hazard-free run was completed", async (t) => {
  const cell = (seed: number, condition: string, success: boolean, error?: string) => ({
    task: 'retail/001',
    domain: 'retail',
    seed,
    condition,
    agent: 'm',
    success,
    score: {},
    journal: [],
    ...(error ? { error } : {}),
  });
  const matrix = summarise(
    [cell(1, 'none', true), cell(1, 'spec_drift', false), cell(2, 'none', false, 'model endpoint down'), cell(2, 'spec_drift', false)],
    'm',
  );
  t.same(
    matrix.drops.filter((drop) => drop.domain === 'all'),
    [{ domain: 'all', kind: 'spec_drift', hazardFree: 100, underKind: 0, drop: 100 }],
    "seed 2's kind run is left out with its errored hazard-free run",
  );
  t.same(matrix.errors, [{ task: 'retail/001', seed: 2, condition: 'none', agent: 'm', error: 'model endpoint down' }]);
});
