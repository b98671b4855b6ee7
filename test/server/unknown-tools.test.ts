import t from 'tap';
import { UNLOCK_ALL } from '../../domains/smart-home/hazards/index.js';
import { UNKNOWN_NAME_KEPT } from '../../server/core/unknown-call.js';
import { REJECTED_ARGS_KEPT } from '../../server/core/journal-entry.js';
import type { JournalEntry } from '../helpers/hazards.js';
import { connectMcp } from '../helpers/mcp.js';
import { SEED, TASK } from '../helpers/openenv.js';
import { startServer } from '../helpers/server.js';

// Every call of a tool that does not exist is journaled (REST, MCP, OpenEnv): the tool's name as sent
// (bounded), its arguments, call 0 and the 404 problem, so that a tool a notice advertises shows in the journal.

const unknownEntry = (tool: string, domain: string) => ({ tool, domain, call: 0, status: 404, problem: { code: 'unknown_tool' }, changes: [], hazards: [] });

t.test('REST: a domain view, the combined view, a name cut to its bound; the clock and sequence move as for any call', async (t) => {
  const server = await startServer(t);
  const advertised = await server.call('smart-home', UNLOCK_ALL, { user_id: 'u' }, 'r');
  t.match(advertised, { status: 404, body: { code: 'unknown_tool' } });
  await server.call('smart-home', 'get_user_inventory', {}, 'r');
  t.equal((await server.request('POST', `/s/r/tools/${UNLOCK_ALL}`, {})).status, 404);
  const long = 'x'.repeat(UNKNOWN_NAME_KEPT + 50);
  t.equal((await server.call('retail', long, { blob: 'y'.repeat(REJECTED_ARGS_KEPT * 2) }, 'r')).status, 404);
  t.equal((await server.request('GET', `/s/r/retail/tools/${UNLOCK_ALL}`)).status, 404, 'a GET asks, it does not call');

  const journal = await server.journal<JournalEntry>('r');
  t.match(journal, [
    { seq: 1, args: { user_id: 'u' }, ...unknownEntry(UNLOCK_ALL, 'smart-home') },
    { seq: 2, tool: 'get_user_inventory', domain: 'smart-home' },
    { seq: 3, ...unknownEntry(UNLOCK_ALL, 'combined') },
    { seq: 4, ...unknownEntry('x'.repeat(UNKNOWN_NAME_KEPT), 'retail'), args_truncated: { kept: REJECTED_ARGS_KEPT } },
  ]);
  t.equal(journal.length, 4, 'the GET is not journaled');
  t.equal(journal[1]!.call, 1, 'no counter moved for the unknown tool');
  t.equal(Date.parse(journal[1]!.at) - Date.parse(journal[0]!.at), 1000, 'the clock ticked for it');
  t.equal((journal[3]!.args as unknown as string).length, REJECTED_ARGS_KEPT, 'its arguments cut as a rejected call’s');
});

t.test('REST: submit_answer outside a task, and a decoy not listed, are unknown tools like any other', async (t) => {
  const server = await startServer(t);
  t.match(await server.call('retail', 'submit_answer', { text: 'x' }, 'a'), { status: 404, body: { code: 'unknown_tool' } });
  t.match(await server.call('retail', 'get_order_info', { order_id: '#W0' }, 'a'), { status: 404, body: { code: 'unknown_tool' } });
  t.match(await server.journal<JournalEntry>('a'), [unknownEntry('submit_answer', 'retail'), unknownEntry('get_order_info', 'retail')]);
});

t.test('MCP and OpenEnv: the same entry', async (t) => {
  const server = await startServer(t);
  const mcp = await connectMcp(t, `${server.origin}/s/m/smart-home/mcp`);
  await t.rejects(mcp.call(UNLOCK_ALL, {}), /No tool 'unlock_all_doors'/);
  t.match(await server.journal<JournalEntry>('m'), [unknownEntry(UNLOCK_ALL, 'smart-home')]);

  const rpc = (method: string, params: Record<string, unknown>) => server.request('POST', '/openenv/mcp', { jsonrpc: '2.0', id: 1, method, params });
  await rpc('openenv/session/create', { task: TASK, seed: SEED, kinds: [], episode_id: 'oe' });
  const called = await rpc('tools/call', { session_id: 'oe', name: 'refund_everything', arguments: { all: true } });
  t.match(called.body.result, { tool_name: 'refund_everything', response: { status: 404 } });
  t.match(await server.journal<JournalEntry>('oe'), [{ args: { all: true }, ...unknownEntry('refund_everything', 'retail') }]);
});

t.test('a restart restores the entry, and the counters of real tools', async (t) => {
  const dir = t.testdir();
  const closers: (() => unknown)[] = [];
  const persistence = { dir, intervalMs: 3_600_000, durability: 'process' } as const;
  const first = await startServer({ teardown: (fn) => closers.push(fn) }, { persistence });
  await first.call('retail', 'nope', {}, 'p');
  await first.call('retail', 'list_all_product_types', {}, 'p');
  const before = await first.journal<JournalEntry>('p');
  for (const close of closers.reverse()) await close();
  const second = await startServer(t, { persistence });
  t.same(await second.journal<JournalEntry>('p'), before, 'the same journal');
  await second.call('retail', 'list_all_product_types', {}, 'p');
  t.match((await second.journal<JournalEntry>('p')).at(-1), { seq: 3, call: 2 }, 'the next call numbered as before the restart');
});
