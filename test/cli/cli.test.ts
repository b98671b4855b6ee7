import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { WildtoolsClient } from '../../client/index.js';
import { commands } from '../../cli/commands/index.js';
import { runCli } from '../../cli/run.js';
import { serverOptions } from '../../cli/server-flags.js';
import { renderFixture } from '../../fixtures/render.js';
import { HAZARD_VARIABLES } from '../../hazards/config.js';
import { CONFIG_VARIABLES } from '../../server/core/config.js';
import { startServer } from '../helpers/server.js';
import { spawnListening } from '../helpers/process.js';

/** Runs the CLI in this process: exit code and what it printed. */
async function cli(argv: string[], env: NodeJS.ProcessEnv = {}) {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (text) => (out += text), err: (text) => (err += text), env });
  return { code, out, err };
}

t.test('help on the whole and on each command', async (t) => {
  const whole = await cli(['--help']);
  t.equal(whole.code, 0);
  for (const command of commands) t.match(whole.out, new RegExp(`\\n  ${command.name} +\\S`), `lists ${command.name}`);
  for (const command of commands) {
    const help = await cli([command.name, '--help']);
    t.equal(help.code, 0, `${command.name} --help`);
    t.match(help.out, `Usage: wildtools ${command.name}`);
    for (const option of command.options) t.match(help.out, `--${option.name}`, `${command.name} --help names --${option.name}`);
  }
  t.equal((await cli(['-h'])).code, 0);
  t.match((await cli(['--version'])).out, /^\d+\.\d+\.\d+\n$/);
  const bare = await cli([]);
  t.equal(bare.code, 2, 'no command is a usage error');
  t.match(bare.err, 'Usage: wildtools <command>');
});

t.test('mistakes exit 2 with a message saying what was wrong', async (t) => {
  const cases: [string[], RegExp][] = [
    [['launch'], /unknown command 'launch'/],
    [['serve', '--bogus'], /wildtools serve: unknown flag --bogus; see wildtools serve --help/],
    [['serve', '--port'], /--port needs a value/],
    [['serve', '--port', 'eighty'], /--port: Invalid PORT="eighty": expected a whole number/],
    [['serve', '--hazards', 'nonsense'], /--hazards: HAZARDS: .*nonsense/],
    [['serve', '--hazard', 'outage'], /--hazard outage: expected KIND=SETTING/],
    [['hazards', '--hazard', 'nonsense=on'], /--hazard: HAZARD__NONSENSE: unknown hazard kind/],
    [['hazards', '--all=yes'], /--all takes no value/],
    [['journal'], /takes <session>, got none/],
    [['journal', 'a', 'b'], /takes <session>, got 'a' 'b'/],
    [['journal', 'a', '--since', 'x'], /--since x: expected a sequence number/],
    [['fixtures', 'out'], /takes no arguments, got 'out'/],
    [['fixtures', '--domain', 'mars'], /--domain mars: the domains are retail, weather, airline, smart-home/],
  ];
  for (const [argv, message] of cases) {
    const run = await cli(argv);
    t.equal(run.code, 2, argv.join(' '));
    t.match(run.err, message, argv.join(' '));
    t.equal(run.out, '', 'nothing on stdout');
  }
});

t.test("serve's flags are the server's variables, named after them", async (t) => {
  const flags = serverOptions.map((option) => option.name);
  for (const variable of [...Object.keys(CONFIG_VARIABLES), ...Object.keys(HAZARD_VARIABLES)]) {
    t.ok(flags.includes(variable.toLowerCase().replaceAll('_', '-')), `${variable} has a flag`);
  }
  t.ok(flags.includes('fixture-smart-home'), 'FIXTURE_<DOMAIN> for every domain');
});

t.test('hazards: the matrix the environment and the flags make, offline', async (t) => {
  const none = await cli(['hazards']);
  t.equal(none.code, 0);
  t.match(none.out, /session default, seed 0, hints off/);
  t.match(none.out, /No hazard is switched on \(\d+ assigned cells: --all lists them\)/);

  const flagged = await cli(['hazards', '--hazard', 'feature_limit:track_order=on', '--hazard-seed', '7'], { HAZARD__OUTAGE: '0.5', HAZARD_HINTS: '1' });
  t.equal(flagged.code, 0);
  t.match(flagged.out, /session default, seed 7, hints on/);
  t.match(flagged.out, /DOMAIN +TOOL +KIND +FAMILY +P +SOURCE/);
  t.match(flagged.out, /retail +track_order +feature_limit +execution +1 +HAZARD__FEATURE_LIMIT__TRACK_ORDER/, 'the flag, as its variable');
  t.match(flagged.out, /outage +execution +0\.5 +HAZARD__OUTAGE/, 'the environment');
  t.match(flagged.out, /DOMAIN +TOOL +KIND +FAMILY +P +SOURCE +CONDITION/, 'a CONDITION column when a scenario shown has one');
  t.match(flagged.out, /retail +track_order +feature_limit +execution +1 +HAZARD__FEATURE_LIMIT__TRACK_ORDER +.*UPS/, "track_order's: UPS orders only");
  const plain = await cli(['hazards', '--hazard', 'outage:track_order=on']);
  t.notMatch(plain.out, /CONDITION/, 'no CONDITION column when no scenario shown has one');
  const all = await cli(['hazards', '--all']);
  t.ok(all.out.split('\n').length > 100, '--all lists the cells switched off');
});

t.test('hazards --url and journal: from a running server', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARD__TRANSIENT_FAILURE__CANCEL_PENDING_ORDER: 'on' } });
  const online = await cli(['hazards', '--url', server.origin]);
  t.equal(online.code, 0);
  t.match(online.out, /retail +cancel_pending_order +transient_failure +execution +1 +HAZARD__TRANSIENT_FAILURE__CANCEL_PENDING_ORDER/);
  t.match(online.out, /\n1 cells$/m);

  const client = new WildtoolsClient({ baseUrl: server.origin, session: 'run-7' });
  t.teardown(() => client.close());
  await client.sessions.create({ id: 'run-7' });
  await client.retail.get_order_details({ order_id: '#W5124601' });
  for (let attempt = 0; attempt < 3; attempt++) {
    await client.retail.cancel_pending_order({ order_id: '#W5124601', reason: 'no longer needed' }).catch(() => undefined);
  }
  await client.retail.get_order_details({ order_id: '#W0000000' }).catch(() => undefined);

  const run = await cli(['journal', 'run-7', '--url', server.origin]);
  t.equal(run.code, 0, run.err);
  const text = run.out;
  t.match(text, /^Session run-7\n#1 {2}\S+ {2}retail\/get_order_details \(call 1\) {2}200 OK\n {4}args {4}\{"order_id":"#W5124601"\}/);
  t.match(text, /#2 .*retail\/cancel_pending_order \(call 1\) {2}5\d\d [A-Z][A-Za-z ]+: \S/, 'a hazarded call with its status line and body');
  t.match(text, /\n {2}! hazard {2}transient_failure \(execution, retryable/, 'hazards marked');
  t.match(text, /#4 .*cancel_pending_order \(call 3\) {2}200 OK\n.*\n {4}changed .*orders\/#W5124601/, 'changes summarised');
  t.match(text, /#5 .*404 order_not_found: Order not found/, 'a problem with its code and detail');
  t.match(text, /5 calls: 2 answered, 3 refused or failed, 2 hit by hazards, 0 fell into traps; 1 records changed\n$/, 'the order only: its user is unchanged');
  t.same((await cli(['journal', 'run-7', '--url', server.origin, '--since', '4'])).out.match(/^#\d+/gm), ['#5'], '--since');
  t.equal((await cli(['journal', 'nobody', '--url', server.origin])).code, 1, 'an unknown session');
  t.match((await cli(['journal', 'default', '--url', server.origin])).out, 'Session default: no calls.');
  const down = await cli(['journal', 'run-7', '--url', 'http://127.0.0.1:1']);
  t.equal(down.code, 1, 'no server');
  t.match(down.err, /wildtools journal: GET \/sessions\/run-7\/journal: the connection failed before any answer: .*ECONNREFUSED/);
});

t.test('fixtures: the seeded databases, written where asked', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'wildtools-fixtures-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const out = join(dir, 'made', 'here');
  const run = await cli(['fixtures', '--domain', 'weather', '--seed', '7', '--out', out]);
  t.equal(run.code, 0, run.err);
  t.match(run.out, /weather\.json: \d+\.\d\d MB \(seed 7\)/);
  t.equal(readFileSync(join(out, 'weather.json'), 'utf8'), renderFixture('weather', 7), 'what the generator makes for that seed');
  t.not(renderFixture('weather', 7), renderFixture('weather', 8), 'the seed matters');
  const blocked = await cli(['fixtures', '--domain', 'weather', '--out', join(out, 'weather.json')]);
  t.equal(blocked.code, 1, 'a folder that cannot be made');
  t.match(blocked.err, /^wildtools fixtures: E[A-Z]+: /);
});

t.test('serve: flags over the environment, the same launch as npm start', async (t) => {
  const main = new URL('../../cli/main.ts', import.meta.url).pathname;
  const { child, origin, output, exited } = await spawnListening(
    process.execPath,
    ['--import', 'tsx', main, 'serve', '--port', '0', '--log-level', 'info', '--max-sessions', '3'],
    {
      env: { ...process.env, _TAPJS_PROCESSINFO_COVERAGE_: '0', PORT: '1', MAX_SESSIONS: '1000' },
    },
  );
  const client = new WildtoolsClient({ baseUrl: origin });
  const health = await client.health();
  await client.close();
  t.equal(health.sessions.max, 3, '--max-sessions wins over MAX_SESSIONS');
  child.kill('SIGTERM');
  t.equal(await exited, 0, 'SIGTERM: shut down, exit 0');
  t.match(output(), /SIGTERM: shutting down/);
});
