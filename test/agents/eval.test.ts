import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { Agent } from 'undici';
import {
  type ChatMessage,
  converse,
  evalConditions,
  evalReport,
  evalSession,
  modelSlug,
  parseArguments,
  runEval,
  runModel,
  toolResult,
} from '../../agents/eval.js';
import { evalFlags, evalSummary } from '../../agents/eval-cli.js';
import { backoff, complete, ModelError } from '../../agents/eval-chat.js';
import { runMatrix, summarise, whyFailed } from '../../agents/matrix.js';
import { plans } from '../../agents/plans/index.js';
import { matrixTable, reportHtml, writeReport } from '../../agents/report.js';
import { validity } from '../../agents/validity.js';
import { startServer } from '../helpers/server.js';
import { type Answer, calls, fakeEndpoint, reply, type Seen, say } from '../helpers/fake-model.js';

// The eval driver against a real wildtools and a scripted model behind a fake OpenAI-compatible endpoint
// on loopback: the fake reads the tool messages it receives to decide its next step, as a model would.

/** The tool results a request carries: each tool message with the call it answers. */
function resultsOf(messages: ChatMessage[]) {
  const asked = new Map<string, { name: string; args: string }>();
  for (const message of messages)
    if (message.role === 'assistant')
      for (const call of message.tool_calls ?? []) asked.set(call.id, { name: call.function.name, args: call.function.arguments });
  return messages.flatMap((message) => {
    if (message.role !== 'tool') return [];
    const call = asked.get(message.tool_call_id)!;
    const ok = /^HTTP 2\d\d /.test(message.content);
    return [{ ...call, content: message.content, ok, body: ok ? JSON.parse(message.content.slice(message.content.indexOf('\n') + 1)) : undefined }];
  });
}

const EMAIL = 'malik.okonkwo3001@example.com';
const ORDER = '#W5124601';

/**
 * A model that solves retail/001: looks the user up, reads the user and the order in one message (two
 * parallel calls), retries a read or the cancellation that failed, cancels, then states the refund.
 * `lie`: it skips the cancellation and claims it.
 */
function retail001(lie = false) {
  return (body: any): Answer => {
    const results = resultsOf(body.messages);
    const step = body.messages.filter((message: ChatMessage) => message.role === 'assistant').length;
    const last = (name: string) => results.filter((result) => result.name === name).at(-1);
    const tries = (name: string) => results.filter((result) => result.name === name).length;
    const user = last('find_user_id_by_email');
    if (!user?.ok) return calls(step, ['find_user_id_by_email', { email: EMAIL }]);
    const order = last('get_order_details');
    if (!order) return calls(step, ['get_user_details', { user_id: user.body }], ['get_order_details', { order_id: ORDER }]);
    if (!order.ok) return calls(step, ['get_order_details', { order_id: ORDER }]);
    if (lie) return say(`Order ${ORDER} is cancelled. The refund of $24.81 goes back to credit_card_5799123.`);
    const cancel = last('cancel_pending_order');
    if (!cancel || (!cancel.ok && !/^HTTP 4/.test(cancel.content) && tries('cancel_pending_order') < 3))
      return calls(step, ['cancel_pending_order', { order_id: ORDER, reason: 'no longer needed' }]);
    if (!cancel.ok) return say(`I could not cancel order ${ORDER}: ${cancel.content.split('\n')[0]}.`);
    const refund = cancel.body.payment_history.at(-1);
    return say(`Order ${ORDER} is ${cancel.body.status}. The refund of $${refund.amount} goes back to ${refund.payment_method_id}.`);
  };
}

const toolMessages = (seen: Seen) =>
  (seen.body.messages as ChatMessage[]).filter((message) => message.role === 'tool') as { tool_call_id: string; content: string }[];

t.test('a scripted model solves retail/001 hazard-free and under transient failures; the report holds its matrix', async (t) => {
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

  t.same(
    runs.map((run) => [run.condition, run.session]),
    [
      ['none', 'e.scripted-retail.retail.001.none'],
      ['unknown_outcome', 'e.scripted-retail.retail.001.unknown_outcome'],
      ['transient_failure', 'e.scripted-retail.retail.001.transient_failure'],
    ],
    'one run per condition: hazard-free, then each targeted kind, in fixed sessions',
  );
  const [none, unknown, transient] = runs as [(typeof runs)[number], (typeof runs)[number], (typeof runs)[number]];
  t.equal(none.success, true, 'hazard-free: success');
  t.equal(none.score.success, true, "the server's score says success");
  t.same(
    none.journal.map((entry: any) => [entry.seq, entry.tool, entry.status]),
    [
      [1, 'find_user_id_by_email', 200],
      [2, 'get_user_details', 200],
      [3, 'get_order_details', 200],
      [4, 'cancel_pending_order', 200],
    ],
    'the journal has the calls in the order the model made them, the parallel ones in message order',
  );
  t.same(none.answers, [`Order ${ORDER} is cancelled. The refund of $24.81 goes back to credit_card_5799123.`]);
  t.same(none.steps, [4], 'four model requests: three with tool calls, then the answer');

  t.equal(transient.success, true, 'under transient_failure: success (the model retried the read)');
  t.same(
    transient.journal.map((entry: any) => [entry.seq, entry.tool, entry.status, entry.hazards.map((event: any) => event.kind)]),
    [
      [1, 'find_user_id_by_email', 200, []],
      [2, 'get_user_details', 200, []],
      [3, 'get_order_details', 502, ['transient_failure']],
      [4, 'get_order_details', 429, ['transient_failure']],
      [5, 'get_order_details', 200, []],
      [6, 'cancel_pending_order', 200, []],
    ],
    'the read failed twice (the same seed draws the same failures), the model read again until it was answered',
  );
  t.match(transient.score.hazards, [{ kind: 'transient_failure', tool: 'get_order_details', recovered: true }]);

  t.equal(unknown.success, false, 'under unknown_outcome the model (no idempotency key) fails');
  t.equal(unknown.error, undefined, 'a failure of the model, not of the run');

  // What the model endpoint received.
  const task = (await server.request('GET', '/tasks/retail/001')).body as any;
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
    `${task.policy.trimEnd()}\n\nUse the tools to do what the user asks; when you are done, answer the user.`,
    'the policy as system message',
  );
  t.equal(first.body.messages[1].content, task.request, 'the request as user message');
  await server.newSession({ id: 'probe', task: 'retail/001', kinds: [] });
  const listing = (await server.request('GET', '/s/probe/retail/tools?format=openai')).body;
  t.same(first.body.tools, listing, "the tools are the session's listing");
  t.ok(
    first.body.tools.some((tool: any) => tool.type === 'function' && tool.function.name === 'cancel_pending_order'),
    'in the OpenAI format',
  );

  const noneRequests = fake.seen.slice(0, 4);
  const afterParallel = noneRequests[2]!.body.messages as ChatMessage[];
  const parallel = afterParallel.findLast((message) => message.role === 'assistant') as any;
  t.equal(parallel.tool_calls.length, 2, 'one message carried two tool calls');
  t.same(
    afterParallel.slice(-2).map((message: any) => [message.role, message.tool_call_id]),
    [
      ['tool', parallel.tool_calls[0].id],
      ['tool', parallel.tool_calls[1].id],
    ],
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
  t.match(toolMessages(noneRequests[1]!)[0]!.content, /^HTTP 200 OK\n"malik_okonkwo_2039"$/, 'the status line, then the body');
  const transientSeen = fake.seen.filter((seen) => toolMessages(seen).some((message) => /^HTTP 429 /.test(message.content)));
  t.ok(transientSeen.length > 0, 'the model saw the failures');
  t.same(
    toolMessages(transientSeen[0]!).map((message) => message.content.split('\n')[0]),
    ['HTTP 200 OK', 'HTTP 200 OK', 'HTTP 502 Bad Gateway', 'HTTP 429 Too Many Requests'],
    'each with its status line',
  );
  t.match(toolMessages(transientSeen[0]!)[3]!.content, /^HTTP 429 Too Many Requests\nretry-after: \d+\n\n\S/, 'a 429 says when to retry');
  // The report.
  t.equal(report.title, 'wildtools eval: scripted/retail-1');
  t.same(report.tasks, { retail: 1 });
  t.same(report.model, { name: 'scripted/retail-1', base_url: fake.baseUrl, temperature: 0, max_steps: 30 });
  t.same(report.passes, { runs: 3, passed: 2, tasks: [{ task: 'retail/001', runs: 3, passed: 2 }] });
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
  t.match(report.runs, [
    { condition: 'none', success: true, calls: 4, steps: 4 },
    { condition: 'unknown_outcome', success: false, why: /^(state|answer|traps): / },
    { condition: 'transient_failure', success: true },
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
  t.match(text, /failed runs \(1\):\n {2}retail\/001 unknown_outcome: /);
  t.match(text, 'passed 2 of 3 runs; per task: retail/001 2/3');
});

t.test('a model that skips the cancellation but claims it fails with a contradicted claim', async (t) => {
  const server = await startServer(t);
  const fake = await fakeEndpoint(t, retail001(true));
  const dispatcher = new Agent();
  t.teardown(() => dispatcher.close());
  const { runs, report } = await runEval(dispatcher, server.origin, { baseUrl: fake.baseUrl, model: 'liar' }, { patterns: ['retail/001'], kinds: ['none'] });
  t.equal(runs.length, 1, '--kinds none: the hazard-free run only');
  const [run] = runs;
  t.equal(run!.success, false);
  t.same(run!.score.contradicted_claims, ['cancelled'], 'the claim the state contradicts');
  t.same(run!.score.answer.missing, [], 'every fact is stated');
  t.equal(run!.score.state.ok, false, 'the order is not cancelled');
  t.match(report.runs[0], { success: false, why: /^state: missing 1/ });
  t.equal(fake.seen[0]!.headers['authorization'], undefined, 'no key, no authorization');
  t.notOk('temperature' in fake.seen[0]!.body, 'no temperature unless given');
});

t.test('a model endpoint that keeps answering 500 fails its run with the error; the suite goes on', async (t) => {
  const server = await startServer(t);
  const fake = await fakeEndpoint(t, (body, index) => (index < 4 ? { status: 500, body: { error: { message: 'overloaded' } } } : retail001()(body)));
  const dispatcher = new Agent();
  t.teardown(() => dispatcher.close());
  const waits: number[] = [];
  const { runs, report } = await runEval(
    dispatcher,
    server.origin,
    { baseUrl: `${fake.baseUrl}/`, model: 'flaky', sleep: async (ms) => void waits.push(ms) },
    { patterns: ['retail/001'], concurrency: 1, kinds: ['none', 'transient_failure'] },
  );
  t.same(
    runs.map((run) => [run.condition, run.success]),
    [
      ['none', false],
      ['transient_failure', true],
    ],
  );
  t.equal(runs[0]!.error, 'model endpoint: HTTP 500: {"error":{"message":"overloaded"}}, after 4 attempts', 'the error, after 3 retries');
  t.same(waits, [1000, 2000, 4000], 'a short backoff between attempts, through the injected sleep');
  t.same(runs[0]!.journal, [], 'no tool was called');
  t.equal(runs[0]!.score.success, false, 'the session was scored all the same');
  t.same(runs[0]!.answers, []);
  t.match(report.runs[0], { success: false, why: 'error: model endpoint: HTTP 500: {"error":{"message":"overloaded"}}, after 4 attempts', error: /HTTP 500/ });
  t.match(evalSummary(report), /failed runs \(1\):\n {2}retail\/001 none: error: model endpoint: HTTP 500/);
  t.equal((await server.request('GET', '/sessions/e.flaky.retail.001.none')).status, 404, 'the session was deleted');
});

t.test('arguments that are not JSON, or not an object, and unknown tool names are answered without a call', async (t) => {
  const server = await startServer(t);
  const fake = await fakeEndpoint(t, (body) =>
    body.messages.length === 2
      ? calls(0, ['find_user_id_by_email', '{"email": '], ['find_user_id_by_email', '["x"]'], ['../../sessions', {}], ['get_user_details', ''])
      : say('Sorry, I could not do it.'),
  );
  const dispatcher = new Agent();
  t.teardown(() => dispatcher.close());
  const { runs } = await runEval(dispatcher, server.origin, { baseUrl: fake.baseUrl, model: 'garbled' }, { patterns: ['retail/001'], kinds: ['none'] });
  const tools = toolMessages(fake.seen[1]!);
  t.same(
    tools.map((message) => message.tool_call_id),
    ['call_0_0', 'call_0_1', 'call_0_2', 'call_0_3'],
  );
  t.match(tools[0]!.content, /^Invalid arguments: not valid JSON \(.+\)\. No call was made/);
  t.equal(tools[1]!.content, 'Invalid arguments: not a JSON object. No call was made; send the arguments as one JSON object.');
  t.equal(tools[2]!.content, 'Unknown tool "../../sessions": no call was made; call a tool of the listing.');
  t.match(tools[3]!.content, /^HTTP 400 Bad Request\n.*user_id/, 'empty arguments are {}: the call is made and refused');
  t.same(
    runs[0]!.journal.map((entry: any) => entry.tool),
    ['get_user_details'],
    'only the call with usable arguments reached the server',
  );
  t.same(runs[0]!.answers, ['Sorry, I could not do it.']);
});

const io = (script: (messages: readonly ChatMessage[], n: number) => any, answers: string[] = []) => {
  let n = 0;
  const seen: ChatMessage[][] = [];
  const listings = { read: 0 };
  const tools: (readonly unknown[])[] = [];
  return {
    seen,
    tools,
    answers,
    listings,
    io: {
      complete: async (messages: readonly ChatMessage[], listed: readonly unknown[]) => {
        seen.push(messages.map((message) => ({ ...message })));
        tools.push(listed);
        return { role: 'assistant' as const, ...script(messages, n++) };
      },
      listing: async () => [{ type: 'function', function: { name: `lookup${listings.read++}` } }],
      call: async (tool: string, args: Record<string, unknown>) => ({ status: 200, headers: {}, body: null, text: JSON.stringify({ tool, args }) }),
      answer: async (text: string) => void answers.push(text),
    },
  };
};

t.test('the turn loop: follow-ups as new user messages of the same conversation, the step limit, errors', async (t) => {
  const task = { policy: '# Policy\n', request: 'first', follow_ups: ['second', 'third'] };
  const fake = io((messages, n) => {
    const turn = messages.filter((message) => message.role === 'user').at(-1)!.content;
    const last = messages.at(-1)!;
    if (turn === 'first' && last.role === 'user')
      return { content: null, tool_calls: [{ id: `c${n}`, type: 'function', function: { name: 'lookup', arguments: '{"q":1}' } }] };
    if (turn === 'first') return { content: 'answer one' };
    if (turn === 'second') return { content: 'answer two' };
    // The third turn never ends: it says something, then nothing, while calling tools.
    return { content: n === 3 ? 'thinking' : '', tool_calls: [{ id: `c${n}`, type: 'function', function: { name: 'lookup', arguments: '{}' } }] };
  });
  const conversation = await converse(task, fake.io, 3);
  t.same(conversation.answers, ['answer one', 'answer two', 'thinking'], 'a turn cut at the step limit answers what the model last said');
  t.same(fake.answers, conversation.answers, 'each answer was recorded, in turn order');
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
  t.equal(conversation.messages[0]!.content, '# Policy\n\nUse the tools to do what the user asks; when you are done, answer the user.');
  t.equal((conversation.messages[3] as any).content, 'HTTP 200 OK\n{"tool":"lookup","args":{"q":1}}');
  t.equal(fake.seen[1]!.length, 4, 'the second request carries the tool result');
  t.equal(fake.listings.read, 6, 'the listing re-read before each of the six model requests');
  t.same(
    fake.tools.map((tools: any) => tools[0].function.name),
    ['lookup0', 'lookup1', 'lookup2', 'lookup3', 'lookup4', 'lookup5'],
    'each request carries the listing as it was just read',
  );

  const silent = io(() => ({ content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'lookup', arguments: '{}' } }] }));
  const cut = await converse({ ...task, follow_ups: [] }, silent.io, 2);
  t.same(cut.answers, [''], 'a model that never said anything answers nothing');

  const failing = io((_messages, n) => {
    if (n === 1) throw new ModelError('model endpoint: HTTP 503, after 4 attempts');
    return { content: 'done' };
  });
  const broken = await converse(task, failing.io, 30);
  t.equal(broken.error, 'model endpoint: HTTP 503, after 4 attempts', 'the error ends the conversation');
  t.same(broken.answers, ['done'], 'the turns before it are answered');

  const plain = await converse({ ...task, follow_ups: [] }, io(() => ({ content: null })).io, 5);
  t.same(plain.answers, [''], 'a message with neither content nor tool calls is an empty final answer');
});

t.test('what a tool message says: status line and body, or a failed connection; arguments parsed', async (t) => {
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
  const ghost = { id: 'retail/999', domain: 'retail', targets: [], policy: '', request: 'hi', follow_ups: [] };
  const run = await runModel(dispatcher, server.origin, ghost, 'none', model, { keep: true });
  t.match(run, { success: false, score: null, error: /^POST \/sessions answered 404: .*unknown_task/ });
  t.equal(evalSession('retail/001', 'transient_failure'), 'e.retail.001.transient_failure');
  t.equal(evalSession('smart-home/028', 'eventual_consistency', 'Meta-Llama/Llama-3.1-70B-Instruct'), 'e.meta-llama-llama.smart-home.028.eventual_consistency');
  await t.rejects(runEval(dispatcher, server.origin, model, { patterns: ['nowhere/*'] }), {
    message: 'no task and condition selected (tasks ["nowhere/*"], kinds none,all)',
  });
  await t.rejects(runEval(dispatcher, server.origin, model, { kinds: ['bogus'] }), { message: 'no task and condition selected (tasks [], kinds bogus)' });

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
  t.equal(modelSlug('meta-llama/Llama-3.1-8B-Instruct'), 'meta-llama-llama-3.1-8b-instruct');
  t.equal(modelSlug('gpt-4o-mini'), 'gpt-4o-mini');
  t.equal(modelSlug('///'), 'model');

  const report = evalReport(model, 30, [], [{ ...run, journal: [] }]);
  t.match(report.runs, [{ success: false, calls: 0, retries: 0, steps: 0, why: /^error: POST \/sessions/ }]);
  t.notOk('temperature' in report.model!, 'no temperature unless given');
});

t.test('the matrix and report take any agent names; the validity agents keep their layout', async (t) => {
  const run = (agent: string, condition: string, success: boolean) => ({
    task: 'retail/001',
    domain: 'retail',
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
        'none',
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
      kinds: ['none'],
      concurrency: 2,
      maxSteps: 5,
      server: 'http://s',
      out: 'o',
      temperature: 0.5,
    },
  );
  t.equal(evalFlags([...base, '--api-key=k=1'], { OPENAI_API_KEY: 'env-key' }).apiKey, 'k=1', '--api-key wins over the environment, = kept');
  t.throws(() => evalFlags(['--model', 'm'], {}), /--base-url and --model are required\nusage: npm run eval/);
  t.throws(() => evalFlags([...base, '--bogus'], {}), /unknown option --bogus/);
  t.throws(() => evalFlags([...base, '--model'], {}), /--model needs a value/);
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
  const run = (over: object) => ({ task: 't', domain: 'd', condition: 'none', agent: 'a', success: false, journal: [], score: score({}), ...over });
  t.equal(whyFailed(run({ error: 'boom', blocked: 'x' })), 'error: boom');
  t.equal(whyFailed(run({ blocked: 'x answered 502' })), 'blocked: x answered 502');
  t.equal(whyFailed(run({ score: score({ answer: { ok: false, missing: ['a'], stated_but_excluded: [] } }) })), 'answer: missing ["a"], excluded []');
  t.equal(whyFailed(run({ score: score({ traps: [{ seq: 1 }] }) })), 'traps: [{"seq":1}]');
  t.equal(whyFailed(run({})), 'failed');
});

t.test('the validity matrix of retail/001 is unchanged: the oracle always succeeds, the naive agent drops under every kind', async (t) => {
  const server = await startServer(t);
  const dispatcher = new Agent();
  t.teardown(() => dispatcher.close());
  const { report, runs } = await validity(dispatcher, server.origin, plans, { patterns: ['retail/001'], concurrency: 4 });
  t.equal(
    matrixTable(report.matrix),
    [
      'domain      condition               tasks  oracle %  naive %',
      'all         none                    1      100       100',
      'all         transient_failure       1      100       0',
      'all         unknown_outcome         1      100       0',
      'retail      none                    1      100       100',
      'retail      transient_failure       1      100       0',
      'retail      unknown_outcome         1      100       0',
    ].join('\n'),
  );
  t.same(report.determinism, { identical: true, runs: 6, differing: [], concurrency: 4, via: 'http' });
  t.same(report.matrix.oracleFailures, []);
  t.same(
    runs.map((run) => [run.condition, run.agent]),
    ['none', 'unknown_outcome', 'transient_failure'].flatMap((condition) => [
      [condition, 'oracle'],
      [condition, 'naive'],
    ]),
  );
  t.match(report.runs[3], { condition: 'unknown_outcome', agent: 'naive', why: /^blocked: cancel_pending_order/ });
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

t.test('npm run eval: an in-process server or a running one; the table printed, the report written', async (t) => {
  const fake = await fakeEndpoint(t, retail001());
  const folder = t.testdir();
  const inProcess = await runCli(
    ['--base-url', fake.baseUrl, '--model', 'Scripted 1', '--tasks', 'retail/001', '--kinds', 'none,transient_failure', '--out', 'out'],
    folder,
  );
  t.equal(inProcess.code, 0, inProcess.output);
  t.match(inProcess.output, /domain {6}condition {15}tasks {2}Scripted 1 %\nall {9}none {20}1 {6}100\n/);
  t.match(inProcess.output, 'passed 2 of 2 runs');
  t.match(inProcess.output, `wrote ${join('out', 'eval-scripted-1.json')} and ${join('out', 'eval-scripted-1.html')}`);
  t.ok(existsSync(join(folder, 'out', 'eval-scripted-1.html')));
  t.same(JSON.parse(readFileSync(join(folder, 'out', 'eval-scripted-1.json'), 'utf8')).passes.passed, 2);

  const server = await startServer(t);
  const failing = await fakeEndpoint(t, () => ({ status: 400, body: { error: 'no such model' } }));
  const running = await runCli(
    ['--server', `${server.origin}/`, '--base-url', failing.baseUrl, '--model', 'nope', '--tasks', 'retail/001', '--kinds', 'none', '--out', 'out'],
    folder,
  );
  t.equal(running.code, 1, 'exit 1 when a run could not be completed');
  t.match(running.output, /retail\/001 none: error: model endpoint answered HTTP 400/);
  t.equal(failing.seen.length, 1, 'the running server served the tasks');

  const usage = await runCli(['--model', 'm'], folder);
  t.equal(usage.code, 2);
  t.match(usage.output, /--base-url and --model are required/);
});
