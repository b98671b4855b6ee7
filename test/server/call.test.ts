import t from 'tap';
import { z } from 'zod';
import type { Domain } from '../../domains/domain.js';
import { defineTool } from '../../domains/tool.js';
import { buildApp } from '../../server/app.js';
import { baseFromFile } from '../../server/core/data/base.js';

// A domain made for this test: one tool that writes and then fails with a bug, one that just fails.
const Counter = z.object({ id: z.string(), value: z.number() });
const buggyWrite = defineTool({
  name: 'increment_then_crash',
  description: 'Increments the counter, then hits a bug.',
  input: z.strictObject({}),
  output: Counter,
  errors: [],
  mutates: true,
  run(_args, db: { counters: { edit(id: string): { value: number } | undefined } }) {
    db.counters.edit('c')!.value += 1;
    throw new TypeError('undefined is not a function');
  },
});
const domain: Domain = {
  name: 'lab',
  title: 'Lab',
  summary: 'A test domain.',
  database: z.object({ counters: z.record(z.string(), Counter) }) as unknown as Domain['database'],
  complete: (file) => file,
  tools: [buggyWrite],
  policyFile: new URL('../../domains/retail/policy.md', import.meta.url),
  fixtureFile: new URL('file:///unused'),
};

t.test('a bug in a tool answers 500 in problem JSON, is journaled and logged, and changes nothing', async (t) => {
  const logged: unknown[] = [];
  const app = await buildApp({
    domains: [domain],
    bases: new Map([['lab', baseFromFile(domain, { counters: { c: { id: 'c', value: 0 } } }, 'inline')]]),
    sessions: { ttlMs: 60_000, maxSessions: 10, defaultSeed: '0' },
    logger: { level: 'error', stream: { write: (line: string) => logged.push(JSON.parse(line)) } },
  });
  t.teardown(() => app.close());
  const reply = await app.inject({ method: 'POST', url: '/lab/tools/increment_then_crash', payload: {} });
  t.equal(reply.statusCode, 500);
  t.match(reply.headers['content-type'], /application\/problem\+json/);
  t.match(reply.json(), { status: 500, code: 'internal_error', detail: /logged/ });
  t.notMatch(reply.body, /undefined is not a function/, 'internals are not leaked to the client');
  t.match(logged, [{ msg: 'tool call failed', err: { message: 'undefined is not a function' } }]);
  const session = app.sessions.resolve('default');
  t.match(session.journalSince(0), [{ tool: 'increment_then_crash', status: 500, changes: [] }]);
  t.equal((session.domain('lab').tables['counters']!.get('c') as { value: number }).value, 0, 'the write was rolled back');
});
