import t from 'tap';
import { CHROMIUM, type ChromiumHost, ensureChromium } from '../helpers/chromium.js';

// ensureChromium's branches, on an injected system: nothing is installed or removed for real.

/** A system whose commands answer `results` in turn; Chromium appears once an install succeeds. */
function fake(options: Partial<ChromiumHost> & { results?: boolean[]; present?: boolean }) {
  const commands: string[] = [];
  let present = options.present ?? false;
  const results = [...(options.results ?? [])];
  const system: Partial<ChromiumHost> = {
    path: '/usr/bin/chromium-under-test',
    isRoot: true,
    hasAptGet: true,
    exists: (path) => path === '/usr/bin/chromium-under-test' && present,
    run: (command, args) => {
      commands.push([command, ...args].join(' '));
      const ok = results.shift() ?? false;
      if (ok && args[0] === 'install') present = true;
      return ok;
    },
    ...options,
  };
  return { system, commands };
}

const INSTALL = 'apt-get install -y --no-install-recommends chromium';

t.test('present: its path, nothing run', async (t) => {
  const { system, commands } = fake({ present: true });
  t.equal(ensureChromium(system), '/usr/bin/chromium-under-test');
  t.same(commands, []);
});

t.test('missing, as root with apt-get: installed', async (t) => {
  const { system, commands } = fake({ results: [true] });
  t.equal(ensureChromium(system), '/usr/bin/chromium-under-test');
  t.same(commands, [INSTALL]);
});

t.test('an install that fails is retried once after apt-get update', async (t) => {
  const { system, commands } = fake({ results: [false, true, true] });
  t.equal(ensureChromium(system), '/usr/bin/chromium-under-test');
  t.same(commands, [INSTALL, 'apt-get update', INSTALL]);
});

t.test('an install that fails twice: an error saying how to install it', async (t) => {
  const { system, commands } = fake({ results: [false, false, false] });
  t.throws(() => ensureChromium(system), /Chromium is missing at \/usr\/bin\/chromium-under-test .*apt-get install -y --no-install-recommends chromium/);
  t.same(commands, [INSTALL, 'apt-get update', INSTALL]);
});

t.test('not root, or no apt-get: nothing is run, the error says how to install it', async (t) => {
  for (const options of [{ isRoot: false }, { hasAptGet: false }]) {
    const { system, commands } = fake({ ...options, results: [true] });
    t.throws(() => ensureChromium(system), /Chromium is missing/);
    t.same(commands, [], JSON.stringify(options));
  }
});

t.test('on this machine, the real check finds the system package', async (t) => {
  t.equal(ensureChromium(), CHROMIUM);
});
