import { join } from 'node:path';
import t from 'tap';
import { domains } from '../../domains/index.js';
import { retail } from '../../domains/retail/index.js';
import { HazardConfigError } from '../../hazards/config.js';
import { hazardsFromEnvironment } from '../../hazards/setup.js';
import { readBoundedText } from '../../lib/bounded-file.js';
import { ConfigError } from '../../server/core/config.js';
import { FixtureError, loadBaseDatabase } from '../../server/core/data/base.js';
import { ProxyConfigError } from '../../server/proxy/config.js';
import { loadDocument } from '../../server/proxy/document.js';
import { TaskBook } from '../../server/core/tasks/book.js';
import { runServerToExit } from '../helpers/process.js';
import { fixtureBases } from '../helpers/server.js';

// Files named by variables are read at startup with a size limit: one too large, or a device that never
// ends (/dev/zero), stops the start at once with one line naming the file and the limit; so does a
// setting that makes no sense.

/** `work()`'s error (it reads at most one byte past its limit: see the first test). */
async function failure(work: () => unknown): Promise<{ error: unknown }> {
  try {
    await work();
  } catch (error) {
    return { error };
  }
  throw new Error('it did not fail');
}

t.test('a file is read up to its limit, and not one byte past it', async (t) => {
  const dir = t.testdir({ 'fits.json': 'x'.repeat(1024), 'over.json': 'x'.repeat(1025) });
  t.equal(readBoundedText(join(dir, 'fits.json'), 1024).length, 1024);
  t.throws(() => readBoundedText(join(dir, 'over.json'), 1024), { message: 'larger than 1 KiB, the limit', code: 'too_large' });
  t.throws(() => readBoundedText(join(dir, 'missing.json'), 1024), { message: 'cannot read it (ENOENT)', code: 'ENOENT' });
  t.throws(() => readBoundedText(dir, 1024), { message: 'cannot read it (EISDIR)' });
});

t.test('/dev/zero as HAZARD_CONFIG, a database, a tasks file or an OpenAPI document fails at its limit', async (t) => {
  const hazards = await failure(() => hazardsFromEnvironment({ HAZARD_CONFIG: '/dev/zero' }, domains));
  t.match(hazards.error, { constructor: HazardConfigError, message: /^HAZARD_CONFIG=\/dev\/zero: larger than 1 MiB, the limit$/ });

  const database = await failure(() => loadBaseDatabase(retail, '/dev/zero'));
  t.match(database.error, { constructor: FixtureError, message: /^\/dev\/zero: cannot read the retail database \(larger than 256 MiB, the limit\)$/ });

  const bases = await fixtureBases();
  const tasks = await failure(() => new TaskBook(domains, bases, { retail: '/dev/zero' }));
  t.match(tasks.error, { constructor: ConfigError, message: /^Invalid TASKS_RETAIL="\/dev\/zero": larger than 64 MiB, the limit$/ });

  const document = await failure(() => loadDocument('/dev/zero', 'PROXY_CONFIG=p.json: crm'));
  t.match(document.error, { constructor: ProxyConfigError, message: /^PROXY_CONFIG=p\.json: crm: openapi: \/dev\/zero: larger than 8 MiB, the limit$/ });
});

t.test('the command stops with one line: an endless or too large file, a nonsensical setting', async (t) => {
  const dir = t.testdir({ 'big.yaml': `# ${'x'.repeat(4 * 1024 * 1024)}\n` });
  const cases: [Record<string, string>, RegExp][] = [
    [{ HAZARD_CONFIG: '/dev/zero' }, /^wildtools: HAZARD_CONFIG=\/dev\/zero: larger than 1 MiB, the limit$/],
    [{ PROXY_CONFIG: '/dev/zero' }, /^wildtools: PROXY_CONFIG=\/dev\/zero: larger than 4 MiB, the limit$/],
    [{ PROXY_CONFIG: join(dir, 'big.yaml') }, /^wildtools: PROXY_CONFIG=.*big\.yaml: larger than 4 MiB, the limit$/],
    [{ SESSION_TTL: '0' }, /^wildtools: Invalid SESSION_TTL="0": expected a duration from 1s to 8760h$/],
    [{ REQUEST_TIMEOUT: '-1' }, /^wildtools: Invalid REQUEST_TIMEOUT="-1": expected a duration such as/],
  ];
  const runs = await Promise.all(cases.map(([env]) => runServerToExit(env)));
  for (const [i, [env, line]] of cases.entries()) {
    const what = Object.entries(env)[0]!.join('=');
    t.equal(runs[i]!.code, 1, `${what}: exits 1`);
    t.match(runs[i]!.output.trim(), line, `${what}: one line`);
  }
});
