import t from 'tap';
import { plans } from '../../agents/plans/index.js';
import { domains } from '../../domains/index.js';
import { TaskBook } from '../../server/tasks/book.js';
import { fixtureBases } from '../helpers/server.js';

// The task suite as data: enough tasks per domain, of every kind of task, aimed at every hazard kind the
// domain declares, each with a plan, each expected write replayable on the default data.

const MIN_TASKS = 25;
const CATEGORIES = ['single-step', 'multi-step', 'parallel', 'multi-mission', 'refusal', 'partial'] as const;

const book = new TaskBook(domains, await fixtureBases());

t.test('every task has a plan and every plan a task', async (t) => {
  t.same(
    book
      .list()
      .map((task) => task.id)
      .filter((id) => !Object.hasOwn(plans, id)),
    [],
    'tasks without a plan',
  );
  t.same(
    Object.keys(plans).filter((id) => !book.get(id)),
    [],
    'plans without a task',
  );
});

for (const domain of domains) {
  t.test(`${domain.name}: at least ${MIN_TASKS} tasks of every category, every hazard kind targeted`, async (t) => {
    const tasks = book.list().filter((task) => task.id.startsWith(`${domain.name}/`));
    t.ok(tasks.length >= MIN_TASKS, `${tasks.length} tasks`);
    for (const category of CATEGORIES)
      t.ok(
        tasks.some((task) => task.categories.includes(category)),
        `a ${category} task`,
      );
    const declared = new Set((domain.hazards ?? []).map((scenario) => `${scenario.kind}/${scenario.tool}`));
    const targeted = new Set(tasks.flatMap((task) => task.targets.map((target) => `${target.kind}/${target.tool}`)));
    t.same(
      [...targeted].filter((scenario) => !declared.has(scenario)),
      [],
      'every target is a scenario the domain declares',
    );
    const kinds = new Set([...declared].map((scenario) => scenario.split('/')[0]));
    const targetedKinds = new Set([...targeted].map((scenario) => scenario.split('/')[0]));
    t.same(
      [...kinds].filter((kind) => !targetedKinds.has(kind)),
      [],
      'every kind the domain declares is targeted by a task',
    );
    t.comment(`${domain.name}: ${tasks.length} tasks; ${targeted.size} of ${declared.size} declared scenarios targeted`);
  });
}

t.test('task shapes: multi-mission tasks have follow-ups, refusals write nothing and forbid the write', async (t) => {
  for (const task of book.list()) {
    if (task.categories.includes('multi-mission')) t.ok((task.follow_ups ?? []).length > 0, `${task.id}: follow-ups`);
    else t.same(task.follow_ups ?? [], [], `${task.id}: one turn`);
    if (task.categories.includes('refusal')) {
      t.same(task.expect.writes, [], `${task.id}: a refusal writes nothing`);
      t.ok(task.forbidden.length > 0 || task.expect.answer.excludes.length > 0, `${task.id}: says what must not happen`);
    }
    t.ok(task.expect.answer.contains.length > 0, `${task.id}: the answer must state something`);
  }
});

t.test('every expected write replays on the default data, and a write task changes something', async (t) => {
  for (const task of book.list()) {
    const records = book.expected(task, 'off');
    if (task.expect.writes.length > 0) t.ok(records.length > 0, `${task.id}: ${records.length} records change`);
    else t.same(records, [], `${task.id}: nothing changes`);
  }
});
