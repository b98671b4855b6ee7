import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { checkoutRevision } from '../../agents/tau2/revision.js';

// The revision a tau2 report names: the checkout's own commit, never that of a repository it merely sits in.

t.test('a checkout of its own gives its HEAD commit', async (t) => {
  const dir = t.testdir({ 'tasks.json': '[]' });
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { encoding: 'utf8' }).trim();
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'one');
  t.match(checkoutRevision(dir), /^[0-9a-f]{40}$/);
  t.equal(checkoutRevision(dir), git('rev-parse', 'HEAD'));
});

t.test('a folder inside another repository has no revision of its own', async (t) => {
  t.equal(checkoutRevision('test/fixtures/tau2-mini'), 'unknown (not a git checkout of its own)');
});

t.test('without git, .git/HEAD and its ref are read; a folder with neither is unknown', async (t) => {
  const sha = 'a'.repeat(40);
  const dir = t.testdir();
  mkdirSync(join(dir, '.git', 'refs', 'heads'), { recursive: true });
  writeFileSync(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(join(dir, '.git', 'refs', 'heads', 'main'), `${sha}\n`);
  t.equal(checkoutRevision(dir), sha);
  writeFileSync(join(dir, '.git', 'HEAD'), `${'b'.repeat(40)}\n`);
  t.equal(checkoutRevision(dir), 'b'.repeat(40), 'a detached HEAD');
  t.equal(checkoutRevision(t.testdir()), 'unknown (not a git checkout of its own)', 'a plain folder inside this repository');
});
