import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { mockCheck } from '../../cli/commands/mock-check.js';
import type { Survey } from '../../cli/mock-survey.js';

// `wildtools mock-check <openapi>`: what the mock infers of each operation, and each operation called once in one
// session (no socket), creates read back.

const DOCS = 'test/server/proxy/mock-documents';

/** Runs the command in this process: exit code and what it printed. */
async function check(document: string, values: Record<string, string | boolean> = {}) {
  let out = '';
  let err = '';
  const code = await mockCheck.run(values, [document], { out: (text) => (out += text), err: (text) => (err += text), env: {} });
  return { code, out, err };
}

async function survey(document: string, values: Record<string, string> = {}): Promise<{ code: number; survey: Survey }> {
  const run = await check(document, { ...values, json: true });
  return { code: run.code, survey: JSON.parse(run.out) as Survey };
}

const roleOf = (survey: Survey, name: string) => survey.roles.find((role) => role.name === name)?.role;

t.test('the helpdesk example: roles as its x-wildtools says, every operation answered, creates read back', async (t) => {
  const run = await check('examples/helpdesk/openapi.yaml', { 'seed-file': 'examples/helpdesk/seed.yaml' });
  t.equal(run.code, 0, run.out);
  t.equal(run.err, '');
  t.match(run.out, /^escalate_ticket +POST +\/tickets\/\{ticket_id\}\/escalate +tickets +update +ticket_id +-$/m, 'the roles table');
  t.match(run.out, /^create_ticket +POST \/tickets +201 +round trip ok \(get_ticket 'ticket_\d+'\)$/m, 'the calls table');
  t.match(run.out, /\nok\n$/);

  const { code, survey: result } = await survey('examples/helpdesk/openapi.yaml', { 'seed-file': 'examples/helpdesk/seed.yaml' });
  t.equal(code, 0);
  t.match(roleOf(result, 'escalate_ticket'), { resource: 'tickets', action: 'update', idParam: 'ticket_id' });
  t.match(roleOf(result, 'add_comment'), { resource: 'comments', action: 'create', parents: [{ resource: 'tickets', param: 'ticket_id' }] });
  t.same(result.calls.map((call) => call.operation).sort(), result.roles.map((role) => role.name).sort(), 'every operation called once');
  t.equal(result.calls[0]!.operation, 'create_ticket', 'creates first');
  t.equal(result.calls.at(-1)!.operation, 'delete_ticket', 'deletes last');
  t.match(
    result.calls.find((call) => call.operation === 'add_comment'),
    { request: /^POST \/tickets\/[^/]+\/comments$/, status: 201 },
  );
  t.notOk(
    result.calls.some((call) => call.status >= 500),
    'no 5xx',
  );
  t.same(result.summary.roundTrips, { ok: ['create_ticket'], failed: [] });
  t.equal(result.summary.operations, result.roles.length);
  t.equal(
    Object.values(result.summary.statuses).reduce((sum, n) => sum + n, 0),
    result.calls.length,
    'the statuses count every call',
  );
});

t.test("the mock's test documents: library.json (3.1) and helpdesk.yaml with its seed file", async (t) => {
  const library = await survey(`${DOCS}/library.json`);
  t.same(await survey(`${DOCS}/library.json`), library, 'the same seed, the same calls and answers');
  t.equal(library.code, 0);
  t.match(roleOf(library.survey, 'borrow_book'), { resource: 'loans', action: 'create' }, "library's x-wildtools override");
  t.same(library.survey.summary.roundTrips.ok, ['add_book']);
  t.equal(library.survey.calls.length, library.survey.roles.length);

  const desk = await survey(`${DOCS}/helpdesk.yaml`, { 'seed-file': `${DOCS}/seed.yaml` });
  t.equal(desk.code, 0);
  t.match(roleOf(desk.survey, 'archive_ticket'), { action: 'none', parents: [{ resource: 'tickets' }] }, 'a verb after a record keeps nothing');
  t.match(roleOf(desk.survey, 'health'), { action: 'none' }, 'a GET whose answer holds no list is no list');
  t.match(
    desk.survey.calls.find((call) => call.operation === 'get_ticket'),
    { request: 'GET /tickets/t_100', status: 200 },
    'a seeded record read',
  );
  t.equal(desk.survey.calls.length, desk.survey.roles.length);
  t.same(desk.survey.summary.serverErrors, []);
});

t.test('a create the read cannot find, a broken document, a missing seed file: exit 1 saying why', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'wildtools-mock-check-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const thing = { type: 'object', properties: { name: { type: 'string' } } };
  const answer = (status: string) => ({ [status]: { description: 'ok', content: { 'application/json': { schema: thing } } } });
  const boundedIds = {
    openapi: '3.0.3',
    info: { title: 'things', version: '1' },
    paths: {
      '/things': { post: { operationId: 'makeThing', requestBody: { content: { 'application/json': { schema: thing } } }, responses: answer('201') } },
      // Records get ids counted from 1 (their schema has no id member), which this parameter's minimum refuses.
      '/things/{id}': {
        get: {
          operationId: 'getThing',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 100 } }],
          responses: answer('200'),
        },
      },
    },
  };
  writeFileSync(join(dir, 'things.json'), JSON.stringify(boundedIds));
  const lost = await check(join(dir, 'things.json'));
  t.equal(lost.code, 1);
  t.match(lost.out, /^make_thing +POST \/things +201 +not found after create \(get_thing '1': 400 Invalid request: id: must be at least 100\)$/m);
  t.match(lost.out, /Not found after create: make_thing\nFAILED\n$/);
  const lostJson = await survey(join(dir, 'things.json'));
  t.equal(lostJson.code, 1);
  t.same(lostJson.survey.summary.roundTrips, { ok: [], failed: ['make_thing'] });
  t.equal(lostJson.survey.summary.ok, false);

  writeFileSync(join(dir, 'broken.yaml'), 'openapi: 3.0.3\ninfo: {title: x}\n');
  const broken = await check(join(dir, 'broken.yaml'));
  t.equal(broken.code, 1);
  t.equal(broken.out, '');
  t.match(broken.err, /^wildtools mock-check: api: openapi: .*broken\.yaml is not an OpenAPI document \(no paths\)\n$/);

  const unseeded = await check(`${DOCS}/helpdesk.yaml`, { 'seed-file': join(dir, 'none.yaml') });
  t.equal(unseeded.code, 1);
  t.match(unseeded.err, /^wildtools mock-check: api: mock\.seed_file: .*none\.yaml/);
});
