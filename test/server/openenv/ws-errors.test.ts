import t from 'tap';
import { startServer } from '../../helpers/server.js';
import { FIND_USER, protocolChecks, rawSocket, SEED, TASK } from '../../helpers/openenv.js';

// Whatever a WebSocket sends, the server answers with an error message naming the problem (OpenEnv's
// codes) and the connection stays usable: the next message is answered as usual.

t.test('each malformed or misplaced message gets its error, and the connection goes on', async (t) => {
  const server = await startServer(t);
  const checks = await protocolChecks(t, server);
  const socket = await rawSocket(t, server);
  const usable = async (why: string) => {
    socket.send(JSON.stringify({ type: 'state' }));
    const answer = await socket.next();
    t.equal(answer.type, 'state', `${why}: the connection still answers`);
    checks.state(answer.data);
  };
  const answersError = async (sent: string | Uint8Array, code: string, why: string, data: Record<string, unknown> = {}) => {
    socket.send(sent);
    t.match(await socket.next(), { type: 'error', data: { code, message: /\w/, ...data } }, `${why}: ${code}`);
  };
  const expectError = async (sent: string | Uint8Array, code: string, why: string, data: Record<string, unknown> = {}) => {
    await answersError(sent, code, why, data);
    await usable(why);
  };

  await expectError('{"type": "reset"', 'INVALID_JSON', 'cut JSON', { message: /^Invalid JSON/ });
  await expectError(new TextEncoder().encode('{"type":"state"}'), 'INVALID_JSON', 'a binary frame', { message: /text frames/ });
  await expectError('{"type":"reset","data":{"__proto__":{"task":"retail/001"}}}', 'INVALID_JSON', 'a __proto__ key', { message: /__proto__/ });
  await expectError(`${'['.repeat(100)}${']'.repeat(100)}`, 'INVALID_JSON', 'too deep', { message: /nested deeper/ });
  await expectError('[{"type":"state"}]', 'VALIDATION_ERROR', 'an array');
  await expectError('"state"', 'VALIDATION_ERROR', 'a string');
  await expectError('{"type":"dance"}', 'UNKNOWN_TYPE', 'an unknown type', { message: /"dance"/ });
  await expectError('{"data":{}}', 'UNKNOWN_TYPE', 'no type');
  await expectError('{"type":"state","extra":1}', 'VALIDATION_ERROR', 'an extra top-level member', { message: /"extra"/ });
  await expectError(JSON.stringify({ type: 'step', data: FIND_USER }), 'SESSION_ERROR', 'a step before reset');
  await expectError(JSON.stringify({ type: 'reset', data: { task: TASK, seed: SEED, max_steps: 0 } }), 'VALIDATION_ERROR', 'a reset out of bounds', {
    errors: [{ field: 'data.max_steps' }],
  });
  await expectError(JSON.stringify({ type: 'reset', data: { task: 'retail/999' } }), 'EXECUTION_ERROR', 'an unknown task', {
    status: 404,
    problem: { code: 'unknown_task', field: 'task' },
  });

  socket.send(JSON.stringify({ type: 'reset', data: { task: TASK, seed: SEED, kinds: [], max_steps: 2 } }));
  const reset = await socket.next();
  t.equal(reset.type, 'observation', 'now a reset');
  checks.observed(reset.data);
  const id: string = reset.data.observation.session_id;
  for (const [data, field] of [
    [{ type: 'call_tool' }, 'data.tool_name'],
    [{ type: 'answer', text: 7 }, 'data.text'],
    [{ type: 'list_tools', surplus: true }, 'data'],
    [[], 'data'],
  ] as const) {
    await expectError(JSON.stringify({ type: 'step', data }), 'VALIDATION_ERROR', `the action ${JSON.stringify(data)}`, { errors: [{ field }] });
  }
  socket.send(JSON.stringify({ type: 'step', data: { type: 'list_tools' } }));
  socket.send(JSON.stringify({ type: 'step', data: { type: 'answer', answer: { order_id: 'none', refunds: [] } } }));
  t.match(await socket.next(), { type: 'observation', data: { done: false } });
  t.match(await socket.next(), { type: 'observation', data: { done: true, reward: 0 } }, 'the second step ends the episode');
  await expectError(JSON.stringify({ type: 'step', data: FIND_USER }), 'EXECUTION_ERROR', 'a step after the end', {
    status: 409,
    problem: { code: 'episode_done' },
  });

  t.equal((await server.request('DELETE', `/sessions/${id}`)).status, 204, 'the session deleted meanwhile');
  for (const type of ['step', 'state'])
    await answersError(JSON.stringify({ type, data: type === 'step' ? FIND_USER : undefined }), 'SESSION_ERROR', `${type} in a deleted session`, {
      problem: { code: 'session_not_found' },
    });
  socket.send(JSON.stringify({ type: 'reset', data: { task: TASK, seed: SEED, kinds: [] } }));
  t.match(checks.observed((await socket.next()).data), { done: false, observation: { step: 0 } }, 'a new reset starts over');
  await usable('after a new reset');
  socket.send('{"type":"close"}');
  t.equal(await socket.closed, 1000, 'close closes the connection normally');
});
