import t from 'tap';
import type { JournalEntry } from '../helpers/hazards.js';
import { findOrder } from '../helpers/retail.js';
import { startServer } from '../helpers/server.js';

// While a tool is down, the fallback the policy names for it is the agent's only source: the engine lets no
// hazard reshape its answers (a retryable fault may still end a call). Retail: track_order is out, and
// get_order_details, its fallback, has an output drift of its own.

const shipped = findOrder((o) => o.fulfillments.length > 0);
const ORDER = { order_id: shipped.order_id };

const kindsOf = (journal: JournalEntry[], tool: string) =>
  journal.filter((entry) => entry.tool === tool).flatMap((entry) => entry.hazards.map((event) => event.kind));

t.test('the fallback of a tool that is down answers as without hazards', async (t) => {
  const server = await startServer(t, { hazardEnv: {} });
  const clean = await server.newSession({ id: 'clean' });
  const truth = (await server.call('retail', 'get_order_details', ORDER, clean)).body;

  const drift = { tools: { retail__get_order_details: { output_drift: 1 } } };
  const alone = await server.newSession({ id: 'drift-alone', hazards: drift });
  const down = await server.newSession({
    id: 'drift-and-outage',
    hazards: { tools: { ...drift.tools, retail__track_order: { outage: 1 } } },
  });
  const bodies: Record<string, unknown[]> = { [alone]: [], [down]: [] };
  for (const session of [alone, down]) {
    t.equal((await server.attempt('retail', 'track_order', ORDER, session)).status, session === down ? 503 : 200, `${session}: track_order`);
    for (let i = 0; i < 3; i++) bodies[session]!.push((await server.call('retail', 'get_order_details', ORDER, session)).body);
  }
  t.ok(kindsOf(await server.journal<JournalEntry>(alone), 'get_order_details').includes('output_drift'), 'alone, the drift reshapes the order');
  t.ok(
    bodies[alone]!.some((body) => JSON.stringify(body) !== JSON.stringify(truth)),
    'so some answer differs from the hazard-free one',
  );
  t.same(kindsOf(await server.journal<JournalEntry>(down), 'get_order_details'), [], 'with track_order down, no hazard touches its fallback');
  t.same(bodies[down], [truth, truth, truth], 'whose answers are the hazard-free ones');
});

t.test('and its listing shows the contract it answers by', async (t) => {
  const server = await startServer(t, { hazardEnv: {} });
  const outputOf = async (session: string) => {
    for (let i = 0; i < 3; i++) await server.call('retail', 'get_order_details', ORDER, session);
    return listed(session);
  };
  const listed = async (session: string) =>
    ((await server.request('GET', `/s/${session}/retail/tools?format=openai`)).body as { function: { name: string; description: string } }[]).find(
      (tool) => tool.function.name === 'get_order_details',
    );
  const canonical = await outputOf(await server.newSession({ id: 'plain' }));
  const drift = { retail__get_order_details: { output_drift: 1 } };
  const alone = await outputOf(await server.newSession({ id: 'drift', hazards: { tools: drift } }));
  const down = await outputOf(await server.newSession({ id: 'down', hazards: { tools: { ...drift, retail__track_order: { outage: 1 } } } }));
  t.not(JSON.stringify(alone), JSON.stringify(canonical), 'alone, the drift changes the listing');
  t.same(down, canonical, 'with track_order down, the fallback is listed as without hazards');
});
