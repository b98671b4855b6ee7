import { join } from 'node:path';
import t from 'tap';
import { domains } from '../../domains/index.js';
import { ConfigError, loadConfig } from '../../server/core/config.js';
import { loadBases } from '../../server/core/load.js';
import { TaskBook } from '../../server/core/tasks/book.js';
import { MAX_TAU2_TASKS } from '../../server/core/tasks/tau2-file.js';
import { runServerToExit } from '../helpers/process.js';

// TASKS_<DOMAIN>: read like FIXTURE_<DOMAIN>; a bad file stops startup with one line naming the variable.

const mini = new URL('../fixtures/tau2-mini/data/tau2/domains/retail/', import.meta.url).pathname;

t.test('TASKS_<DOMAIN> is read per domain; an unknown one is an error', async (t) => {
  t.same(loadConfig({ TASKS_RETAIL: '/x/tasks.json' }, domains).taskFiles, { retail: '/x/tasks.json' });
  t.throws(() => loadConfig({ TASKS_AIRPORT: 'x.json' }, domains), { constructor: ConfigError, message: /^Unknown TASKS_AIRPORT: the domains are retail/ });
});

t.test('a bad tasks.json is a ConfigError naming the variable and what is wrong', async (t) => {
  const bases = await loadBases(domains, { retail: join(mini, 'db.json') });
  const dir = t.testdir({
    'object.json': '{"id": "0"}',
    'syntax.json': '[{',
    'many.json': JSON.stringify(Array.from({ length: MAX_TAU2_TASKS + 1 }, () => ({}))),
    // A gold write with an argument the tool refuses, and one the database refuses: tau2-bench's evaluator logs
    // them and goes on, so they are expected refusals, the tasks loaded with nothing to write.
    'writes.json': JSON.stringify([
      {
        id: 'w',
        user_scenario: { instructions: 'Cancel #W0000001.' },
        evaluation_criteria: { actions: [{ name: 'cancel_pending_order', arguments: { order_id: '#W0000001', reason: 7 } }] },
      },
      {
        id: 'd',
        user_scenario: { instructions: 'Cancel #W0000002.' },
        evaluation_criteria: { actions: [{ name: 'cancel_pending_order', arguments: { order_id: '#W0000002', reason: 'no longer needed' } }] },
      },
    ]),
  });
  const book = (file: string) => new TaskBook(domains, bases, { retail: join(dir, file) });
  t.throws(() => book('object.json'), { constructor: ConfigError, message: /^Invalid TASKS_RETAIL=".*object\.json": expected tau2-bench's tasks\.json/ });
  t.throws(() => book('syntax.json'), { constructor: ConfigError, message: /TASKS_RETAIL=.*: not JSON/ });
  t.throws(() => book('many.json'), { constructor: ConfigError, message: /10001 tasks, more than 10000/ });
  t.throws(() => book('missing.json'), { constructor: ConfigError, message: /cannot read it \(ENOENT\)/ });
  const writes = book('writes.json');
  const [imported] = writes.imports;
  t.same(imported!.skipped, []);
  t.equal(imported!.loaded, 2);
  t.match(imported!.expected_refusals, [
    { id: 'w', action: 0, tool: 'cancel_pending_order', status: 400, code: 'invalid_input', detail: /reason/ },
    { id: 'd', action: 0, tool: 'cancel_pending_order', status: 409, detail: /Non-pending order cannot be cancelled/ },
  ]);
  await writes.ready();
  for (const id of ['retail/tau2-w', 'retail/tau2-d']) t.same(writes.instance(id, 0).expected, [], `${id}: nothing is expected to change`);
});

t.test('the command stops at startup with one line naming TASKS_RETAIL', async (t) => {
  const dir = t.testdir({ 'bad.json': '{}' });
  const run = await runServerToExit({ FIXTURE_RETAIL: join(mini, 'db.json'), TASKS_RETAIL: join(dir, 'bad.json') });
  t.equal(run.code, 1);
  t.match(run.output, /^wildtools: Invalid TASKS_RETAIL=".*bad\.json": expected tau2-bench's tasks\.json/m);
});

t.test("the fixture in tau2-bench's format: every task loads but those it cannot run, each with why", async (t) => {
  const folder = new URL('../fixtures/tau2-mini/data/tau2/domains/', import.meta.url).pathname;
  const bases = await loadBases(domains, { retail: join(folder, 'retail/db.json'), airline: join(folder, 'airline/db.json') });
  const book = new TaskBook(domains, bases, { retail: join(folder, 'retail/tasks.json'), airline: join(folder, 'airline/tasks.json') });
  const [retail, airline] = book.imports;
  t.same(
    retail!.skipped.map((s) => s.id),
    ['6', '7'],
  );
  t.match(retail!.skipped[0]!.why, /initial_state sets initialization_actions/);
  t.same(
    airline!.skipped.map((s) => s.id),
    ['6'],
    'an initial_state that sets nothing (airline 5) loads',
  );
  t.same([retail!.loaded, airline!.loaded], [10, 8]);
  t.same(retail!.reward_basis, { DB: 10, COMMUNICATE: 7, NL_ASSERTION: 2 });
  t.same(retail!.unscored, { NL_ASSERTION: 2 });
  t.same(
    [...retail!.expected_refusals, ...airline!.expected_refusals].map((r) => `${r.id}#${r.action} ${r.tool} ${r.status} ${r.code}`),
    [
      '8#0 find_user_id_by_email 404 user_not_found',
      '8#2 get_order_details 404 order_not_found',
      '9#2 exchange_delivered_order_items 409 order_not_delivered',
      '10#2 return_delivered_order_items 409 order_not_delivered',
      '11#1 cancel_pending_order 400 invalid_input',
      '8#0 get_reservation_details 404 reservation_not_found',
    ],
  );
  await book.ready();
  const expected = (id: string) => book.instance(id, 0).expected.map((r) => `${r.table}/${r.id}`);
  t.same(expected('retail/tau2-10'), [], 'the only gold write refused: the end state is the start');
  t.same(expected('retail/tau2-9'), ['orders/#W0000004'], 'the refused exchange writes nothing; the modification after it does');
  t.same(expected('retail/tau2-11'), expected('retail/tau2-0'), 'the refused call changes nothing: the same cancellation as task 0');
  const scored = book.instance('retail/tau2-8', 0).scored;
  t.same(scored.answer, { rule: 'tau2', contains: ['33.0'], excludes: [], claims: [] }, "the answer rule stays tau2-bench's facts");
  t.same(scored.judge, { state: true, answer: false, calls: [] }, 'retail basis DB + NL_ASSERTION: communicate_info is not judged');
  t.same(book.instance('airline/tau2-7', 0).scored.judge, { state: true, answer: true, calls: [] });
});
