import t from 'tap';
import { startServer } from '../helpers/server.js';

const TASK = 'retail/001';

t.test('GET /: JSON for a program, with links that answer', async (t) => {
  const server = await startServer(t);
  await server.newSession({ id: 'plain' });
  await server.call('retail', 'list_all_product_types', {}, 'plain');
  await server.newSession({ id: 'tasked', task: TASK, seed: 1, kinds: [] });
  const batch = await server.request('POST', '/batches', { task: TASK, n: 2, id: 'b1', kinds: [] });
  t.equal(batch.status, 201);

  const reply = await server.request('GET', '/');
  t.equal(reply.status, 200);
  t.match(reply.headers['content-type'], /^application\/json/);
  const landing = reply.body;
  t.match(landing, { name: 'wildtools', version: String, tasks: { count: Number, list: '/tasks' }, docs: { swagger_ui: '/docs', openapi: '/openapi.json' } });
  const plain = landing.sessions.find((s: { id: string }) => s.id === 'plain');
  t.same(plain, { id: 'plain', calls: 1, view: '/sessions/plain/view', journal: '/sessions/plain/journal' }, 'a session without a task');
  t.match(
    landing.sessions.find((s: { id: string }) => s.id === 'tasked'),
    { task: TASK, view: '/sessions/tasked/view', score: '/sessions/tasked/score' },
  );
  t.same(landing.reports.batches, [{ id: 'b1', task: TASK, sessions: 2, report: '/batches/b1' }]);
  t.equal(
    Object.values(landing.tasks.by_domain).reduce((sum: number, d) => sum + (d as { count: number }).count, 0),
    landing.tasks.count,
    'the domains count every task',
  );
  t.same(Object.keys(landing.docs.domains).sort(), ['airline', 'retail', 'smart-home', 'weather']);

  const links: string[] = [
    ...landing.sessions.flatMap((s: Record<string, unknown>) => [s['view'], s['journal'], s['score']].filter((link) => link !== undefined)),
    ...Object.values(landing.tasks.by_domain).map((d) => (d as { list: string }).list),
    landing.tasks.list,
    ...Object.values(landing.docs as Record<string, unknown>).flatMap((link) => (typeof link === 'string' ? [link] : Object.values(link as object))),
    ...landing.reports.batches.map((b: { report: string }) => b.report),
  ];
  for (const link of links) t.equal((await server.request('GET', link)).status, 200, `${link} answers`);
});

t.test('GET / in a browser: a page linking every session page, the tasks, the docs and the reports', async (t) => {
  const server = await startServer(t);
  await server.newSession({ id: 'tasked', task: TASK, seed: 1, kinds: [] });
  const reply = await server.request('GET', '/', undefined, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
  t.equal(reply.status, 200);
  t.match(reply.headers['content-type'], /^text\/html/);
  t.match(reply.headers['content-security-policy'], /default-src 'none'/);
  t.match(reply.headers['vary'], /accept/i);
  const page = reply.text;
  t.match(page, /^<!doctype html>/);
  for (const href of [
    '/sessions/tasked/view',
    '/sessions/tasked/score',
    '/sessions/default/view',
    '/tasks',
    '/docs',
    '/openapi.json',
    '/retail/openapi.json',
  ]) {
    t.match(page, `href="${href}"`, `links ${href}`);
  }
  for (const id of ['sessions', 'tasks', 'docs', 'reports']) t.match(page, `<section id="${id}"`, `the ${id} section`);
  t.notMatch(page, /<script/, 'no script');
});

t.test('GET / needs the API token when the server sets one', async (t) => {
  const server = await startServer(t, { access: { apiToken: 'secret' } });
  t.equal((await server.request('GET', '/')).status, 401, 'the sessions it lists are the API’s');
  t.equal((await server.request('GET', '/', undefined, { authorization: 'Bearer secret' })).status, 200);
});
