import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { loadTasks } from '../../scoring/load.js';

const valid = {
  id: 'shop/001',
  title: 'Look up an order',
  categories: ['single-step'],
  request: 'Where is order 1?',
  targets: [{ kind: 'transient_failure', tool: 'get_order', recovery: 'retry' }],
  expect: { writes: [], answer: { contains: ['shipped'] } },
};

function folder(files: Record<string, unknown>): URL {
  const dir = mkdtempSync(join(tmpdir(), 'tasks-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  return pathToFileURL(`${dir}/`);
}

const tools = new Set(['get_order', 'cancel']);

t.test('tasks load in file order, with their defaults', async (t) => {
  const tasks = loadTasks('shop', folder({ '002.json': { ...valid, id: 'shop/002' }, '001.json': valid, 'README.md': '# not a task' }), tools);
  t.same(
    tasks.map((task) => task.id),
    ['shop/001', 'shop/002'],
  );
  t.same(tasks[0]!.forbidden, []);
  t.same(tasks[0]!.expect.answer.excludes, []);
  t.same(tasks[0]!.expect.claims, []);
});

t.test('a missing folder is no tasks', async (t) => {
  t.same(loadTasks('shop', new URL('file:///nonexistent-tasks-folder/'), tools), []);
});

t.test('a bad file fails with its name and what is wrong', async (t) => {
  t.throws(() => loadTasks('shop', folder({ '001.json': '{' }), tools), { name: 'TaskFileError', message: /shop\/tasks\/001\.json: .*JSON/ });
  t.throws(() => loadTasks('shop', folder({ '001.json': { ...valid, request: '' } }), tools), { message: /shop\/tasks\/001\.json: .*request/s });
  t.throws(() => loadTasks('shop', folder({ '001.json': { ...valid, id: 'shop/002' } }), tools), { message: /its id must be shop\/001, not shop\/002/ });
  t.throws(() => loadTasks('shop', folder({ '001.json': { ...valid, targets: [{ kind: 'x', tool: 'refund', recovery: 'r' }] } }), tools), {
    message: /no tool named refund in shop/,
  });
  t.throws(() => loadTasks('shop', folder({ '001.json': { ...valid, surprise: true } }), tools), { message: /surprise/ });
});
