import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import t from 'tap';
import { findOrder, retailFixture } from '../helpers/retail.js';
import { startServer } from '../helpers/server.js';

// python3 is part of the machine (here and in CI): without it this test fails, it does not skip.

const script = new URL('../../examples/python/agent.py', import.meta.url).pathname;

/** Runs the example with python3 (asynchronously: the server answers from this same process). */
async function runPython(args: readonly string[], url: string): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)('python3', [script, ...args], { env: { ...process.env, WILDTOOLS_URL: url }, timeout: 60_000 });
    return stdout;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error('python3 is not on PATH: the Python example needs it, and the machine is meant to have it');
    throw error;
  }
}

t.test('the Python tool-calling loop cancels a pending order, reading a refusal on the way', async (t) => {
  const server = await startServer(t);
  const order = findOrder((o) => o.status === 'pending');
  const email = retailFixture().users[order.user_id]!.email;

  const printed = await runPython(['--scripted', '--json', '--email', email, '--order', order.order_id, '--session', 'python-example'], server.origin);
  const run = JSON.parse(printed) as { session: string; answer: string; seen: { name: string; output: string }[] };

  t.equal(run.session, 'python-example');
  t.same(
    run.seen.map((seen) => seen.name),
    ['find_user_id_by_email', 'get_order_details', 'cancel_pending_order', 'cancel_pending_order'],
    'every tool output was handed back to the model',
  );
  t.match(run.seen[2]?.output, /^Error: HTTP 422 .*"code":"invalid_reason"/, 'the refusal is the tool output');
  const diff = (await server.request('GET', '/sessions/python-example/diff')).body;
  t.match(diff.retail, [{ table: 'orders', id: order.order_id, op: 'update', after: { status: 'cancelled', cancel_reason: 'no longer needed' } }]);
  t.equal(diff.retail.length, 1, 'the cancel is the only change');
  t.equal(run.answer, `Order ${order.order_id} is now cancelled.`);
});
