import { readFileSync } from 'node:fs';
import t from 'tap';
import { CHROMIUM, ensureChromium } from '../helpers/chromium.js';
import { installCommand, requirePackage, SYSTEM_PACKAGES } from '../helpers/debian.js';

// The browser and cluster tests find their Debian packages or fail saying how to install them: they never
// install anything themselves (.ci/run installs them, as the README says).

t.test('present: its path', async (t) => {
  t.equal(
    ensureChromium('/usr/bin/chromium-under-test', (path) => path === '/usr/bin/chromium-under-test'),
    '/usr/bin/chromium-under-test',
  );
});

t.test('missing: an error naming the tests that need it and the command that installs it', async (t) => {
  t.throws(() => ensureChromium('/nowhere/chromium', () => false), {
    message:
      "/nowhere/chromium is missing: the browser tests (test/browser/): the session pages in headless Chromium need Debian's chromium, " +
      'and tests install nothing. Install it with "sudo apt-get install -y --no-install-recommends chromium" (what .ci/run does), then run the tests again.',
  });
  t.throws(() => requirePackage('nginx', '/nowhere/nginx', () => false), {
    message: /^\/nowhere\/nginx is missing: the cluster test .*install -y --no-install-recommends nginx"/,
  });
});

t.test('.ci/run installs every package the tests need, before the tests', async (t) => {
  const ci = readFileSync(new URL('../../.ci/run', import.meta.url), 'utf8');
  const install = ci.indexOf(installCommand(Object.keys(SYSTEM_PACKAGES)));
  t.ok(install > 0, `.ci/run runs "${installCommand(Object.keys(SYSTEM_PACKAGES))}"`);
  t.ok(install < ci.indexOf('npm test'), 'before npm test');
});

t.test('on this machine, Chromium is installed', async (t) => {
  t.equal(ensureChromium(), CHROMIUM);
});
