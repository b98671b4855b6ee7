import { join } from 'node:path';
import t from 'tap';
import { domains } from '../../domains/index.js';
import { ConfigError, loadConfig } from '../../server/config.js';
import { loadBases } from '../../server/load.js';
import { TaskBook } from '../../server/tasks/book.js';
import { MAX_TAU2_TASKS } from '../../server/tasks/tau2-file.js';
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
    // A gold write with a bad argument, and one the database refuses: skipped, not fatal.
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
  const skipped = book('writes.json').imports[0]!.skipped;
  t.match(skipped, [
    { id: 'w', why: /gold write cancel_pending_order has invalid arguments: reason/ },
    { id: 'd', why: /a gold write fails on the database: Non-pending order cannot be cancelled/ },
  ]);
});

t.test('the command stops at startup with one line naming TASKS_RETAIL', async (t) => {
  const dir = t.testdir({ 'bad.json': '{}' });
  const run = await runServerToExit({ FIXTURE_RETAIL: join(mini, 'db.json'), TASKS_RETAIL: join(dir, 'bad.json') });
  t.equal(run.code, 1);
  t.match(run.output, /^wildtools: Invalid TASKS_RETAIL=".*bad\.json": expected tau2-bench's tasks\.json/m);
});
