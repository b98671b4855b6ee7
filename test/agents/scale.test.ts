import t from 'tap';
import { type BatchResult, maxBatch, runBatch, scaleTable } from '../../agents/scale.js';
import { startServer } from '../helpers/server.js';

// OpenEnv's scaling measurement, bounded for CI (the long sweep is `npm run openenv:scale`): a batch of
// concurrent WebSocket episodes all succeed and are counted; past the server's session capacity, the
// sessions beyond it fail cleanly with CAPACITY_REACHED while the others still succeed.

/** A read every instance of the task answers. */
const call = { tool_name: 'list_all_product_types', arguments: {} };

t.test('a batch of concurrent episodes, measured', async (t) => {
  const server = await startServer(t, { sessions: { maxSessions: 64 } });
  const result = await runBatch({ baseUrl: `${server.origin}/openenv`, sessions: 40, steps: 3, wait: 0, task: 'retail/001', call, timeout: 60 });
  t.equal(result.succeeded, 40, 'every session succeeds');
  t.equal(result.success_rate, 1);
  t.ok(result.requests_per_s > 0, 'requests per second are measured');
  t.ok(result.latency_ms.p50 <= result.latency_ms.p99 && result.latency_ms.p99 <= result.latency_ms.max, 'percentiles are ordered');
  t.same(result.failures, []);
  const live = () => server.app.sessions.list().filter((session) => session.options.task === 'retail/001').length;
  // The server learns of each close a moment after the client does.
  for (let tries = 0; tries < 100 && live() > 0; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
  t.equal(live(), 0, 'each session is deleted when its connection closes');
});

t.test('beyond capacity, the extra sessions fail cleanly', async (t) => {
  const server = await startServer(t, { sessions: { maxSessions: 6 } });
  // The default session is not counted: five episodes fit beside it.
  const result = await runBatch({ baseUrl: `${server.origin}/openenv`, sessions: 12, steps: 2, wait: 0.2, task: 'retail/001', call, timeout: 30 });
  t.ok(result.succeeded >= 5 && result.succeeded < 12, `some sessions succeed, not all (${result.succeeded} of 12)`);
  t.ok(
    result.failures.length > 0 && result.failures.every((failure) => /sessions are in use|sessions at once|capacity/i.test(failure.why)),
    `the others fail for capacity: ${JSON.stringify(result.failures)}`,
  );
  const again = await runBatch({ baseUrl: `${server.origin}/openenv`, sessions: 3, steps: 1, wait: 0, task: 'retail/001', call, timeout: 30 });
  t.equal(again.succeeded, 3, 'once the batch has closed, new sessions succeed');
});

t.test('the largest batch at the threshold, and the table', async (t) => {
  const row = (sessions: number, success_rate: number): BatchResult => ({
    sessions,
    wait: 1,
    steps: 5,
    succeeded: Math.round(sessions * success_rate),
    success_rate,
    requests_per_s: 10,
    seconds: 1,
    latency_ms: { p50: 1, p95: 2, p99: 3, max: 4 },
    connect_ms: { p50: 1, p99: 2 },
    failures: [],
  });
  t.equal(maxBatch([row(64, 1), row(128, 0.96), row(256, 0.5)]), 128);
  t.equal(maxBatch([row(64, 0.9)]), 0);
  t.match(scaleTable([row(64, 1)]), /\| 64 \| 1 \| 100\.0 % \| 10 \| 1 \| 3 \| 2 \| 1\.0 \|/);
});
