import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { packInto, ROOT as root } from '../helpers/pack.js';
import { spawnListening } from '../helpers/process.js';

// The package as npm would publish it: `npm pack`, unpacked elsewhere, run by its bin, imported by its
// exports. It packs the compiled build in dist/, which `npm install` / `npm ci` make (the prepare
// script); packing skips the scripts so that this test does not compile again.

const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const env = { ...process.env, _TAPJS_PROCESSINFO_COVERAGE_: '0', NODE_OPTIONS: '' };

const dir = mkdtempSync(join(tmpdir(), 'wildtools-pack-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

const { tarball, files } = packInto(dir, env);

// Installed as a dependency of an app: node_modules/wildtools, whose own dependencies are the repository's.
const app = join(dir, 'app');
const installed = join(app, 'node_modules', 'wildtools');
mkdirSync(installed, { recursive: true });
execFileSync('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
symlinkSync(join(root, 'node_modules'), join(installed, 'node_modules'), 'dir');
const bin = join(installed, 'dist', 'cli', 'main.js');

t.test('the tarball ships the build and what the server reads at run time, nothing else', async (t) => {
  for (const needed of [
    'dist/cli/main.js',
    'dist/server/main.js',
    'dist/client/index.js',
    'dist/client/index.d.ts',
    'dist/client/schemas/retail.d.ts',
    'dist/package.json',
  ]) {
    t.ok(files.includes(needed), needed);
  }
  for (const domain of ['retail', 'airline', 'smart-home', 'weather']) {
    t.ok(files.includes(`dist/fixtures/${domain}.json`), `the ${domain} fixture`);
    t.ok(files.includes(`dist/domains/${domain}/policy.md`), `the ${domain} policy`);
  }
  t.same(
    files.filter((file) => !file.startsWith('dist/') && !['package.json', 'README.md', 'SECURITY.md'].includes(file)),
    [],
    'no sources or tests',
  );
  t.same(
    files.filter((file) => file.endsWith('.map')),
    [],
    'no source maps',
  );
});

t.test('its bin answers --help and serves', async (t) => {
  const help = execFileSync(process.execPath, [bin, '--help'], { env, encoding: 'utf8' });
  t.match(help, /^Usage: wildtools <command>/);

  const { child, origin, exited } = await spawnListening(process.execPath, [bin, 'serve', '--port', '0', '--log-level', 'info'], { cwd: dir, env });
  t.teardown(() => child.kill('SIGKILL'));

  // The client, as an app imports it.
  writeFileSync(
    join(app, 'check.mjs'),
    `import { WildtoolsClient } from 'wildtools/client';
const client = new WildtoolsClient({ baseUrl: process.argv[2] });
const order = await client.retail.get_order_details({ order_id: '#W5124601' });
const policy = await client.policy('smart-home');
console.log(JSON.stringify({ order: order.order_id, policy: policy.length > 100 }));
await client.close();
`,
  );
  const answer = JSON.parse(execFileSync(process.execPath, [join(app, 'check.mjs'), origin], { cwd: app, env, encoding: 'utf8' }));
  t.same(answer, { order: '#W5124601', policy: true }, 'the fixtures and policies are in the package');
  child.kill('SIGTERM');
  t.equal(await exited, 0);
});

t.test('its default export is a fastify plugin an app registers under a prefix', async (t) => {
  // The app's own fastify, as its dependency.
  symlinkSync(join(root, 'node_modules', 'fastify'), join(app, 'node_modules', 'fastify'), 'dir');
  writeFileSync(
    join(app, 'plugin.mjs'),
    `import Fastify from 'fastify';
import wildtools, { sessionPaths } from 'wildtools';
const app = Fastify({ rewriteUrl: sessionPaths('/w') });
app.get('/own', async () => 'mine');
await app.register(wildtools, { prefix: '/w', hazards: { env: { HAZARD__OUTAGE__TRACK_ORDER: 'on' } } });
const order = await app.inject({ method: 'POST', url: '/w/s/a/retail/tools/get_order_details', payload: { order_id: '#W5124601' } });
const outage = await app.inject({ method: 'POST', url: '/w/s/a/retail/tools/track_order', payload: { order_id: '#W5124601' } });
const journal = await app.inject({ method: 'GET', url: '/w/sessions/a/journal' });
const own = await app.inject({ method: 'GET', url: '/own' });
console.log(JSON.stringify({ order: order.json().order_id, outage: outage.statusCode, journal: journal.json().length, own: own.body }));
await app.close();
`,
  );
  const answer = JSON.parse(execFileSync(process.execPath, [join(app, 'plugin.mjs')], { cwd: app, env, encoding: 'utf8' }));
  t.same(answer, { order: '#W5124601', outage: 503, journal: 2, own: 'mine' }, 'served from dist/server/plugin.js, with its data and hazards');
});

t.test("its types check in an app's TypeScript", async (t) => {
  writeFileSync(
    join(app, 'app.ts'),
    `import { ProblemError, WildtoolsClient } from 'wildtools/client';
const client = new WildtoolsClient({ baseUrl: 'http://127.0.0.1:8080' });
export const id: Promise<string> = client.call('retail', 'get_order_details', { order_id: '#W1' }).then((order) => order.order_id);
// @ts-expect-error order_id is a string
client.retail.get_order_details({ order_id: 1 });
export const code = (error: ProblemError): string | undefined => error.code;
import wildtools, { type WildtoolsOptions } from 'wildtools';
export const options: WildtoolsOptions = { prefix: '/w', hazards: { env: { HAZARDS: 'failures', HAZARD_SEED: '1' } } };
export const plugin: (app: never, options: WildtoolsOptions) => Promise<void> = wildtools;
// @ts-expect-error hazards are given as { env }
export const wrong: WildtoolsOptions = { hazards: 'failures' };
`,
  );
  const options = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--skipLibCheck'];
  const run = () => execFileSync(process.execPath, [tsc, ...options, join(app, 'app.ts')], { cwd: app, env, encoding: 'utf8' });
  t.doesNotThrow(run, 'types resolve from dist/client/index.d.ts and dist/server/plugin.d.ts');
});
