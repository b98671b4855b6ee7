import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { addBagScript } from '../../examples/langchain/script.js';
import { cancelOrderScript } from '../../examples/openai-agents/script.js';
import { ScriptedModel } from '../../examples/openai-agents/scripted-model.js';
import { cliOptions, report } from '../../examples/shared/cli.js';
import { ATTEMPTS, answer, callTool, coping, fieldOf, isFault, type Script, type SeenOutput } from '../../examples/shared/script.js';
import { DEFAULT_URL, WildtoolsSession, wildtoolsUrl } from '../../examples/shared/wildtools.js';
import { dimLightScript } from '../../examples/vercel-ai/script.js';
import { findDevice } from '../domains/smart-home/helpers.js';
import { startServer } from '../helpers/server.js';

const server = await startServer(t);

t.test('the server comes from WILDTOOLS_URL, else the default local address', async (t) => {
  t.equal(wildtoolsUrl({ WILDTOOLS_URL: 'http://10.0.0.5:9000/' }), 'http://10.0.0.5:9000');
  t.equal(wildtoolsUrl({}), DEFAULT_URL);
});

t.test('the command line: --scripted, or a prompt from the other words and an API key', async (t) => {
  const refuse = (message: string): never => {
    throw new Error(message);
  };
  t.same(cliOptions(['--scripted'], {}, refuse), { scripted: true, prompt: undefined });
  t.same(cliOptions(['cancel', 'my', 'order'], { OPENAI_API_KEY: 'sk-test' }, refuse), { scripted: false, prompt: 'cancel my order' });
  t.throws(() => cliOptions([], {}, refuse), /OPENAI_API_KEY is not set: .* or pass --scripted/, 'a real run needs the key');
});

t.test("the command line's report: the answer, what the session changed, where its journal is", async (t) => {
  const light = findDevice((d) => d.capabilities.includes('power') && d.online && d.state.power === 'off', 'light that is off');
  const session = await WildtoolsSession.create(server.origin, 'examples-report');
  await session.call('smart-home', 'power_on', { endpoints: [light.endpoint] });
  const printed = t.capture(console, 'log');
  await report(session, 'it is on');
  t.match(
    printed().map((call) => call.args[0]),
    [
      'agent: it is on',
      new RegExp(`^changed: smart-home devices ${light.endpoint} update .*state\\.power`),
      `journal: ${server.origin}/sessions/examples-report/journal`,
    ],
  );
});

t.test('a session names itself or takes a name; a refused creation says why', async (t) => {
  const named = await WildtoolsSession.create(server.origin, 'examples-named');
  t.equal(named.id, 'examples-named');
  t.match((await WildtoolsSession.create(server.origin)).id, /\S+/, 'the server names one');
  await t.rejects(WildtoolsSession.create(server.origin, 'examples-named'), /POST \/sessions answered 409/);
  t.equal((await named.tools('weather')).length > 0, true, 'the session lists its tools');
  await t.rejects(named.tools('no-such-domain'), /GET \/no-such-domain\/tools answered 404/);
});

t.test('a call answers text for the model: the result, a refusal with its status, a failed connection', async (t) => {
  const session = await WildtoolsSession.create(server.origin);
  t.equal(await session.call('retail', 'calculate', { expression: '2 + 2' }), '"4.0"');
  t.match(await session.call('retail', 'calculate', {}), /^Error: HTTP 400 .*"field":"expression"/);
  // A server that creates sessions and cuts every other connection, as a transport fault does.
  const cutting = createServer((request, response) => {
    if (request.url === '/sessions') response.writeHead(201, { 'content-type': 'application/json' }).end('{"id":"cut"}');
    else request.socket.destroy();
  });
  await new Promise<void>((resolve) => cutting.listen(0, '127.0.0.1', resolve));
  t.teardown(() => cutting.close());
  const stranded = await WildtoolsSession.create(`http://127.0.0.1:${(cutting.address() as AddressInfo).port}`);
  t.match(await stranded.call('retail', 'calculate', { expression: '2 + 2' }), /^Error: the request failed \(.+\)$/);
});

t.test('each script gives up when the refusal it needs never reaches it', async (t) => {
  const outputs = (...texts: string[]): SeenOutput[] => texts.map((output) => ({ name: 'tool', output }));
  const REFUSED = 'Error: HTTP 409 {"code":"other_refusal"}';
  const cases: [string, Script, SeenOutput[]][] = [
    ['cancel', cancelOrderScript({ email: 'a@example.com', orderId: '#W1' }), outputs('"user"', '{}', REFUSED)],
    ['dim', dimLightScript({ endpoint: 'Lamp_1', brightness: 30 }), outputs(REFUSED)],
    ['bag', addBagScript({ reservationId: 'ABC123' }), outputs('{}', '{}', REFUSED)],
  ];
  for (const [name, script, seen] of cases) t.match(script(seen), { text: /^I could not/ }, name);
});

t.test('a fault is a failed connection, a 5xx, a 429, a 408 or a body that is not JSON; a refusal is an answer', async (t) => {
  for (const fault of [
    'Error: the request failed (read ECONNRESET)',
    'Error: HTTP 502 <html>',
    'Error: HTTP 429 {}',
    'Error: HTTP 408 {}',
    '{"status":"pen',
    '',
  ])
    t.equal(isFault(fault), true, fault);
  for (const answered of ['Error: HTTP 422 {"code":"invalid_reason"}', 'Error: HTTP 409 {}', '"malik"', '{"status":"pending"}'])
    t.equal(isFault(answered), false, answered);
});

t.test('a coping script repeats the call after a fault, and after too many says so without a claim', async (t) => {
  const seen = (...texts: string[]): SeenOutput[] => texts.map((output) => ({ name: 'write', output }));
  const inner: Script = (answers) => (answers.length === 0 ? callTool('write', { idempotency_key: 'k-1' }) : answer(`done: ${answers[0]!.output}`));
  const script = coping(inner);
  t.same(script(seen('Error: HTTP 504 timeout')), callTool('write', { idempotency_key: 'k-1' }), 'the same call, the same key');
  t.same(script(seen('Error: HTTP 504 timeout', '{"ok":true}')), answer('done: {"ok":true}'), 'the faults are not shown to the script');
  const gaveUp = script(seen(...Array.from({ length: ATTEMPTS }, () => 'Error: HTTP 503 down')));
  t.match(gaveUp, { text: new RegExp(`^I could not complete the request: write failed ${ATTEMPTS} times in a row`) });
});

t.test('fieldOf reads a field of a JSON object, and nothing else', async (t) => {
  t.equal(fieldOf('{"status":"pending"}', 'status'), 'pending');
  t.equal(fieldOf('"text"', 'status'), undefined);
  t.equal(fieldOf('Error: HTTP 502 <html>', 'status'), undefined);
  t.equal(fieldOf('{"a":1}', 'toString'), undefined, 'own keys only');
});

t.test('the Agents SDK stand-in does not stream', async (t) => {
  const model = new ScriptedModel(() => answer('done'));
  await t.rejects(async () => {
    for await (const _ of model.getStreamedResponse()) break;
  }, /does not stream/);
});
