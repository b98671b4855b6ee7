import t from 'tap';
import { domains } from '../../domains/index.js';
import { ConfigError, loadConfig } from '../../server/core/config.js';

t.test('defaults', async (t) => {
  t.same(loadConfig({}, domains), {
    port: 8080,
    host: '127.0.0.1',
    logLevel: 'info',
    dataDir: undefined,
    sessionTtlMs: 3_600_000,
    maxSessions: 1000,
    journalLimit: 10_000,
    journalMemory: 268_435_456,
    snapshotIntervalMs: 1000,
    checkpointBytes: 16 * 1024 * 1024,
    dataFsync: false,
    dataRecover: 'stop',
    adminProxyExec: false,
    seed: '0',
    allowedHosts: [],
    timeouts: { requestMs: 60_000, headersMs: 20_000 },
    openenvIdleMs: 300_000,
    compat: 'off',
    fixtures: {},
    taskFiles: {},
  });
});

t.test('ALLOWED_HOSTS, the request timeouts and the OpenEnv idle timeout', async (t) => {
  t.same(loadConfig({ ALLOWED_HOSTS: 'WildTools.test, *.corp.example,[fd00::1]' }, domains).allowedHosts, ['wildtools.test', '*.corp.example', '[fd00::1]']);
  t.same(loadConfig({ REQUEST_TIMEOUT: '2m', HEADERS_TIMEOUT: '500ms' }, domains).timeouts, { requestMs: 120_000, headersMs: 500 });
  t.same(loadConfig({ REQUEST_TIMEOUT: '5s' }, domains).timeouts, { requestMs: 5000, headersMs: 5000 }, "the headers' default shortened to fit");
  t.equal(loadConfig({ OPENENV_IDLE_TIMEOUT: '90s' }, domains).openenvIdleMs, 90_000);
});

t.test('every variable is read; durations take units', async (t) => {
  const config = loadConfig(
    {
      PORT: '0',
      HOST: '0.0.0.0',
      LOG_LEVEL: 'debug',
      DATA_DIR: 'wildtools-data',
      SESSION_TTL: '15m',
      MAX_SESSIONS: '5',
      SNAPSHOT_INTERVAL: '250ms',
      HAZARD_SEED: '42',
      TAU2_COMPAT: 'strict',
      FIXTURE_RETAIL: '/data/db.json',
    },
    domains,
  );
  t.match(config, {
    port: 0,
    host: '0.0.0.0',
    logLevel: 'debug',
    dataDir: 'wildtools-data',
    sessionTtlMs: 900_000,
    maxSessions: 5,
    snapshotIntervalMs: 250,
    seed: '42',
    compat: 'strict',
    fixtures: { retail: '/data/db.json' },
  });
  t.equal(loadConfig({ SESSION_TTL: '2h' }, domains).sessionTtlMs, 7_200_000);
  t.equal(loadConfig({ SESSION_TTL: '90' }, domains).sessionTtlMs, 90_000, 'a bare number is seconds');
  t.equal(loadConfig({ PORT: '' }, domains).port, 8080, 'an empty variable is unset');
  t.equal(loadConfig({ DATA_FSYNC: '1' }, domains).dataFsync, true);
  t.equal(loadConfig({ DATA_FSYNC: 'false' }, domains).dataFsync, false);
  t.equal(loadConfig({ DATA_RECOVER: 'quarantine' }, domains).dataRecover, 'quarantine');
  t.throws(() => loadConfig({ DATA_RECOVER: 'ignore' }, domains), { message: /DATA_RECOVER/ });
  t.equal(loadConfig({ JOURNAL_MEMORY: '64MB' }, domains).journalMemory, 64 * 1024 * 1024, 'sizes take units');
  t.equal(loadConfig({ JOURNAL_MEMORY: '1GiB' }, domains).journalMemory, 1024 ** 3);
  t.equal(loadConfig({ JOURNAL_MEMORY: '1.5k' }, domains).journalMemory, 1536);
  t.equal(loadConfig({ JOURNAL_MEMORY: '2097152' }, domains).journalMemory, 2_097_152, 'a bare number is bytes');
});

t.test('a bad value is an error naming the variable and the value', async (t) => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ PORT: 'eighty' }, /^Invalid PORT="eighty": expected a whole number from 0 to 65535/],
    [{ PORT: '70000' }, /^Invalid PORT="70000"/],
    [{ LOG_LEVEL: 'loud' }, /^Invalid LOG_LEVEL="loud"/],
    [{ SESSION_TTL: 'soon' }, /^Invalid SESSION_TTL="soon": expected a duration/],
    [{ SESSION_TTL: '0' }, /^Invalid SESSION_TTL="0": expected a duration from 1s to 8760h$/],
    [{ SESSION_TTL: '10ms' }, /^Invalid SESSION_TTL="10ms": expected a duration from 1s/],
    [{ SESSION_TTL: '100000h' }, /^Invalid SESSION_TTL="100000h": expected a duration from 1s to 8760h$/],
    [{ SESSION_TTL: '-5' }, /^Invalid SESSION_TTL="-5": expected a duration such as/],
    [{ SNAPSHOT_INTERVAL: '0' }, /^Invalid SNAPSHOT_INTERVAL="0": expected a duration from 10ms to 1h$/],
    [{ REQUEST_TIMEOUT: '0' }, /^Invalid REQUEST_TIMEOUT="0": expected a duration from 100ms to 1h$/],
    [{ HEADERS_TIMEOUT: 'never' }, /^Invalid HEADERS_TIMEOUT="never": expected a duration such as/],
    [{ REQUEST_TIMEOUT: '10s', HEADERS_TIMEOUT: '20s' }, /^Invalid HEADERS_TIMEOUT="20s": expected at most REQUEST_TIMEOUT/],
    [{ OPENENV_IDLE_TIMEOUT: '0' }, /^Invalid OPENENV_IDLE_TIMEOUT="0": expected a duration from 1s to 24h$/],
    [{ ALLOWED_HOSTS: 'wildtools.test:8080' }, /^Invalid ALLOWED_HOSTS="wildtools.test:8080": expected host names without a port/],
    [{ ALLOWED_HOSTS: 'a,,b' }, /^Invalid ALLOWED_HOSTS="a,,b"/],
    [{ ALLOWED_HOSTS: '*' }, /^Invalid ALLOWED_HOSTS="\*"/],
    [{ ALLOWED_HOSTS: 'http://wildtools.test' }, /^Invalid ALLOWED_HOSTS/],
    [{ MAX_SESSIONS: '0' }, /^Invalid MAX_SESSIONS="0"/],
    [{ DATA_FSYNC: 'always' }, /^Invalid DATA_FSYNC="always": expected 1, 0, true or false/],
    [{ JOURNAL_MEMORY: 'lots' }, /^Invalid JOURNAL_MEMORY="lots": expected a size such as/],
    [{ JOURNAL_MEMORY: '10' }, /^Invalid JOURNAL_MEMORY="10": expected a size of at least 1KB/],
    [{ TAU2_COMPAT: 'loose' }, /^Invalid TAU2_COMPAT="loose": expected off or strict$/],
    [{ TAU2_COMPAT: 'STRICT' }, /^Invalid TAU2_COMPAT="STRICT": expected off or strict$/],
    [{ FIXTURE_AIRPORT: 'x.json' }, /^Unknown FIXTURE_AIRPORT: the domains are retail/],
  ];
  for (const [env, message] of cases) t.throws(() => loadConfig(env, domains), { constructor: ConfigError, message }, Object.keys(env)[0]!);
});
