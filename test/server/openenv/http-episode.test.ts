import t, { type Test } from 'tap';
import { startServer, type TestServer } from '../../helpers/server.js';
import { CANCEL, FIND_USER, ORDER, protocolChecks, READ_ORDER, rightAnswer, SEED, TASK, USER_ID, WRONG_ANSWER } from '../../helpers/openenv.js';

// A whole retail/001 episode over HTTP with transient failures: each failed read is observed exactly as
// the REST route answers it in a session of the same id and seed, and the answer ends the episode with
// the session's score as the reward.

const SETUP = { task: TASK, seed: SEED, kinds: ['transient_failure'] };
const MOST_READS = 6;

async function episode(t: Test, server: TestServer, id: string, answer: 'right' | 'wrong') {
  const checks = await protocolChecks(t, server);
  const step = async (action: unknown) => {
    const reply = await server.request('POST', '/openenv/step', { session_id: id, action });
    t.equal(reply.status, 200, `step ${JSON.stringify(action)}`);
    return checks.observed(reply.body);
  };
  const reset = await server.request('POST', '/openenv/reset', { ...SETUP, episode_id: id });
  t.equal(reset.status, 200);
  checks.observed(reset.body);
  t.match((await step(FIND_USER)).observation, { result: USER_ID, error: null });
  const reads = [];
  for (let attempt = 0; attempt < MOST_READS; attempt++) {
    const { observation } = await step(READ_ORDER);
    reads.push(observation);
    if (observation.error === null) break;
  }
  const read = reads.at(-1)!;
  t.match(read, { response: { status: 200 }, result: { order_id: ORDER, status: 'pending' } }, 'the read succeeds in the end');
  const failed = reads.slice(0, -1);
  t.ok(failed.length >= 1, `${failed.length} reads failed first`);
  for (const observation of failed) {
    t.ok([429, 500, 502, 503].includes(observation.response.status), `a transient failure: ${observation.response.status}`);
    t.equal(observation.error.error_type, 'execution_error');
  }
  const cancelled = await step(CANCEL);
  t.match(cancelled.observation, { error: null, result: { status: 'cancelled' } });
  const last = await step(answer === 'right' ? rightAnswer(cancelled.observation.result) : WRONG_ANSWER);
  return { reads, last };
}

t.test('a retail/001 episode with transient failures: REST-identical failures, then reward 1 for the right answer', async (t) => {
  const server = await startServer(t);
  const { reads, last } = await episode(t, server, 'cancel-right', 'right');
  t.match(last, { done: true, reward: 1, observation: { step: reads.length + 3, score: { success: true } } });
  const score = await server.request('GET', '/sessions/cancel-right/score');
  t.same(last.observation.score, score.body, 'observation.score is GET /sessions/{id}/score');
  t.match(
    await server.request('POST', '/openenv/step', { session_id: 'cancel-right', action: FIND_USER }),
    { status: 409, body: { code: 'episode_done' } },
    'a step after the end',
  );
  t.match((await server.request('GET', '/openenv/state?session_id=cancel-right')).body, { done: true, step_count: reads.length + 3 });

  // Another run: the same session id and seed, called over REST.
  const other = await startServer(t);
  t.equal((await other.request('POST', '/sessions', { ...SETUP, id: 'cancel-right' })).status, 201);
  t.equal((await other.call('retail', FIND_USER.tool_name, FIND_USER.arguments, 'cancel-right')).status, 200);
  for (const [index, observed] of reads.entries()) {
    const rest = await other.call('retail', READ_ORDER.tool_name, READ_ORDER.arguments, 'cancel-right');
    t.equal(observed.response.status, rest.status, `read ${index + 1}: the status`);
    t.equal(observed.response.headers['content-type'], rest.headers['content-type'], `read ${index + 1}: the content type`);
    t.equal(observed.response.body, rest.text, `read ${index + 1}: the body, byte for byte`);
    for (const [name, value] of Object.entries(observed.response.headers)) t.equal(value, rest.headers[name], `read ${index + 1}: ${name}`);
  }
});

t.test('the wrong answer ends the episode with reward 0', async (t) => {
  const server = await startServer(t);
  const { last } = await episode(t, server, 'cancel-wrong', 'wrong');
  t.match(last, { done: true, reward: 0, observation: { score: { success: false } } });
  t.same(last.observation.score, (await server.request('GET', '/sessions/cancel-wrong/score')).body, 'the score, as the session reports it');
});
