import t from 'tap';
import { plans } from '../../agents/plans/index.js';
import { domains } from '../../domains/index.js';
import { TaskBook } from '../../server/core/tasks/book.js';
import { fixtureBases } from '../helpers/server.js';

// The task suite as data: enough tasks per domain, of every kind of task, aimed at every hazard kind the
// domain declares, each a template with a typed answer and a plan.

const MIN_TASKS = 25;
const CATEGORIES = ['single-step', 'multi-step', 'parallel', 'multi-mission', 'refusal', 'partial'] as const;

const book = await new TaskBook(domains, await fixtureBases()).ready();

t.test('every task has a plan and every plan a task', async (t) => {
  t.same(
    book
      .list()
      .map((task) => task.id)
      .filter((id) => !Object.hasOwn(plans, id)),
    [],
    'tasks without a plan in agents/plans/<domain>.ts',
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
    for (const kind of kinds)
      t.ok(
        targetedKinds.has(kind),
        targetedKinds.has(kind)
          ? `${kind} is targeted by a task`
          : `${kind} has a scenario in domains/${domain.name}/hazards/index.ts but no task in domains/${domain.name}/tasks/ targets it ` +
              `(targets: [{ kind: '${kind}', tool }], and its plan in agents/plans/${domain.name}.ts)`,
      );
    t.comment(`${domain.name}: ${tasks.length} tasks; ${targeted.size} of ${declared.size} declared scenarios targeted`);
  });
}

t.test('every embedded task is a template answered by typed fields', async (t) => {
  t.same(
    book
      .list()
      .filter((task) => task.source !== 'template')
      .map((task) => task.id),
    [],
    'tasks given as fixed data',
  );
});

t.test('task shapes: multi-mission tasks have follow-ups, refusals write nothing and say so, a write task changes something', async (t) => {
  for (const task of book.list()) {
    if (task.categories.includes('multi-mission')) t.ok(task.turns > 1, `${task.id}: follow-ups`);
    else t.equal(task.turns, 1, `${task.id}: one turn`);
    const decoys = (task.domain.hazards ?? []).flatMap((scenario) => ('decoy' in scenario ? [(scenario.decoy as { name: string }).name] : []));
    const known = new Set([...task.domain.tools.map((tool) => tool.name), ...decoys]);
    for (const seed of [0, 1, 2]) {
      const instance = book.instance(task.id, seed);
      const unknown = instance.scored.forbidden.filter((rule) => !known.has(rule.tool)).map((rule) => rule.tool);
      if (unknown.length > 0) t.fail(`${task.id}#${seed}: forbids calls of tools its domain does not have: ${unknown.join(', ')}`);
      if (task.categories.includes('refusal')) {
        t.same(instance.scored.writes, [], `${task.id}#${seed}: a refusal writes nothing`);
        const outcome = Object.values((instance.turns[0]!.answer?.json['properties'] ?? {}) as Record<string, { type?: string; enum?: unknown }>).some(
          (field) => field.type === 'boolean' || field.enum !== undefined,
        );
        t.ok(instance.scored.forbidden.length > 0 || outcome, `${task.id}#${seed}: it forbids the call it refuses, or its answer says what was not done`);
      }
      if (instance.scored.writes.length > 0) t.ok(instance.expected.length > 0, `${task.id}#${seed}: ${instance.expected.length} records change`);
      else t.same(instance.expected, [], `${task.id}#${seed}: nothing changes`);
      t.ok(
        instance.turns.every((turn) => turn.answer !== undefined),
        `${task.id}#${seed}: every turn is answered by typed fields`,
      );
    }
  }
});
