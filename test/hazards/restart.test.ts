import t from 'tap';
import { startServer } from '../helpers/server.js';
import { findOrder } from '../helpers/retail.js';

const order = findOrder((o) => o.status === 'pending');
const env = { HAZARDS: 'failures,output', HAZARD_RATE: '0.5', HAZARD_SEED: '11', HAZARD_MAX_CONSECUTIVE: '2' };
const calls: [string, Record<string, unknown>][] = [
  ['get_order_details', { order_id: order.order_id }],
  ['search_product', { query: 'black' }],
  ['get_user_details', { user_id: order.user_id }],
  ['view_cart', { user_id: order.user_id }],
];

/** Runs the calls `rounds` times in session `s`, on a server kept in `dir`, and returns what the journal says. */
async function run(dir: string, rounds: number) {
  const closers: (() => unknown)[] = [];
  const server = await startServer({ teardown: (fn) => closers.push(fn) }, { hazardEnv: env, persistence: { dir, intervalMs: 3_600_000 } });
  try {
    // Transport faults close the connection: the client's error is expected, the journal says what happened.
    for (let i = 0; i < rounds; i++) for (const [tool, args] of calls) await server.call('retail', tool, args, 's').catch(() => undefined);
    return (await server.journal('s')).map(
      (e: { tool: string; status: number; hazards: { kind: string }[] }) => `${e.tool} ${e.status} ${e.hazards.map((h) => h.kind).join('+')}`,
    );
  } finally {
    for (const close of closers.reverse()) await close();
  }
}

t.test('a session restored after a restart goes on with the schedule it would have had', async (t) => {
  const uninterrupted = await run(t.testdir(), 6);
  t.ok(
    uninterrupted.some((line) => / \S+$/.test(line)),
    'some calls were hit',
  );
  const dir = t.testdir();
  await run(dir, 3);
  const resumed = await run(dir, 3);
  t.same(resumed, uninterrupted, 'three rounds, a restart, three more rounds: the same statuses and hazards as six rounds in one go');
});
