import t from 'tap';
import { isDeepStrictEqual } from 'node:util';
import { startServer } from '../helpers/server.js';

// Every task on several seeds: its instance is valid (what the request states is plain data, the reference
// answer fits the answer schema), the reference run replayed through the API with its answer submitted
// succeeds, and the instance differs from seed 0's in what an agent must read (its answer).

const SEEDS = [1, 2, 3];

t.test('every task instance is valid, solvable as its reference run says, and differs from seed 0', async (t) => {
  const server = await startServer(t, { sessions: { maxSessions: 64 } });
  const tasks = (await server.app.tasks.ready()).list().filter((task) => task.source === 'template');
  t.ok(tasks.length > 0, 'templates were found');
  for (const task of tasks) {
    const zero = server.app.tasks.instance(task.id, 0);
    for (const seed of [0, ...SEEDS]) {
      const instance = server.app.tasks.instance(task.id, seed);
      const where = `${task.id}#${seed}`;
      const view = await server.request('GET', `/tasks/${task.id}?seed=${seed}`);
      if (view.status !== 200) {
        t.fail(`${where}: GET /tasks answered ${view.status}: ${view.text.slice(0, 300)}`);
        continue;
      }
      if (!isDeepStrictEqual(JSON.parse(JSON.stringify(instance.given)), instance.given)) t.fail(`${where}: what the request states is plain data`);
      if (view.body.request.includes('undefined') || view.body.request.includes('[object')) t.fail(`${where}: the request reads well: ${view.body.request}`);
      if (seed > 0) {
        const same = instance.turns.every((turn, i) => isDeepStrictEqual(turn.answer?.expected, zero.turns[i]?.answer?.expected));
        if (same) t.fail(`${where}: the expected answer differs from seed 0's (${JSON.stringify(zero.turns[0]?.answer?.expected)})`);
      }
      const session = `i.${task.id.replace('/', '.')}.${seed}`;
      await server.request('POST', '/sessions', { id: session, task: task.id, seed, kinds: [] });
      for (const write of instance.scored.writes) {
        const reply = await server.call(task.domain.name, write.tool, write.args, session);
        if (reply.status !== 200) t.fail(`${where}: the reference's ${write.tool} answered ${reply.status} through the API: ${reply.text.slice(0, 200)}`);
      }
      for (const turn of instance.turns) {
        const reply = await server.call(task.domain.name, 'submit_answer', turn.answer?.expected, session);
        if (reply.status !== 200) t.fail(`${where}: the reference answer was refused by submit_answer: ${reply.text.slice(0, 300)}`);
      }
      const score = await server.request('GET', `/sessions/${session}/score`);
      // Words are never read: only imported tau2 tasks keep tau2's own rule (facts found in the text).
      if (instance.scored.answer.rule !== 'typed' || score.body.answer?.rule !== 'typed') t.fail(`${where}: the answer is judged by its typed fields`);
      if (score.body.success !== true)
        t.fail(`${where}: the reference run succeeds: ${JSON.stringify({ state: score.body.state, answer: score.body.answer }).slice(0, 600)}`);
      await server.request('DELETE', `/sessions/${session}`);
    }
    t.pass(`${task.id}: ${1 + SEEDS.length} instances`);
  }
});
