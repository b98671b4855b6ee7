import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import t from 'tap';

// `npm run bench -- --list` names the scenarios at once: the bench compiles the server only when it is to measure it.

const root = fileURLToPath(new URL('../../', import.meta.url));

t.test('npm run bench -- --list lists the scenarios without compiling', async (t) => {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const env = { ...process.env, _TAPJS_PROCESSINFO_COVERAGE_: '0', NODE_OPTIONS: '' };
  const output = execFileSync(npm, ['run', 'bench', '--', '--list'], { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  for (const scenario of ['read', 'write', 'hazards', 'durable', 'sessions', 'memory', 'cold-start', 'instances', 'proxy', 'mock', 'cluster'])
    t.match(output, new RegExp(`^${scenario} +\\S`, 'm'), scenario);
  t.notMatch(output, /compile|tsc -p/, 'nothing compiled');
});
