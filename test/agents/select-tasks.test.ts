import t from 'tap';
import { selectTasks, taskPattern } from '../../agents/validity.js';

// The task patterns every command takes (--tasks of eval, validity, adversaries, tau2): shell globs over ids.

const tasks = ['retail/001', 'retail/002', 'retail/003', 'retail/010', 'airline/001', 'smart-home/001'].map((id) => ({ id }));
const ids = (...patterns: string[]) => selectTasks(tasks, patterns).map((task) => task.id);

t.test('*, ? and sets in brackets, as shells glob; anything else literal', async (t) => {
  t.same(ids('retail/00[12]'), ['retail/001', 'retail/002']);
  t.same(ids('retail/00[1-3]'), ['retail/001', 'retail/002', 'retail/003']);
  t.same(ids('retail/0[!0]?'), ['retail/010']);
  t.same(ids('retail/0[^0]?'), ['retail/010']);
  t.same(ids('*/001'), ['retail/001', 'airline/001', 'smart-home/001']);
  t.same(ids('retail/00?'), ['retail/001', 'retail/002', 'retail/003']);
  t.same(ids('smart-home/001', 'airline/*'), ['airline/001', 'smart-home/001']);
  t.same(
    ids(),
    tasks.map((task) => task.id),
    'no pattern: every task',
  );
  t.same(ids('retail/00.'), [], 'a dot is a dot');
  t.same(ids('retail/001)'), [], 'regular-expression syntax is literal');
  t.ok(taskPattern('a[]]b').test('a]b'), 'a "]" first in a set is a member');
  t.ok(taskPattern('a[\\]b').test('a\\b'), 'a backslash in a set is a member');
});

t.test('a malformed pattern throws, saying why', async (t) => {
  t.throws(() => taskPattern('retail/00[12'), { message: 'task pattern "retail/00[12": "[" at 10 has no closing "]"' });
  t.throws(() => taskPattern('retail/00[3-1]'), { message: /^task pattern "retail\/00\[3-1\]": a set in brackets is malformed/ });
});
