import t from 'tap';
import { domains } from '../../domains/index.js';
import type { AnyTool } from '../../domains/tool.js';
import { CONTRACT_HAZARDS, changedSession, LISTING_PATHS } from '../helpers/listing-views.js';
import { startServer } from '../helpers/server.js';

type McpEntry = { name: string; title: string; annotations: Record<string, unknown> };

const byName = new Map<string, AnyTool>(domains.flatMap((domain) => domain.tools.map((tool) => [tool.name, tool] as const)));

t.test('every writing tool declares whether it is destructive and idempotent', async (t) => {
  for (const domain of domains) {
    for (const tool of domain.tools as readonly AnyTool[]) {
      if (!tool.mutates) t.equal(tool.effect, undefined, `${domain.name}/${tool.name}: a read declares no effect`);
      else t.match(tool.effect, { destructive: Boolean, idempotent: Boolean }, `${domain.name}/${tool.name}: declares its effect`);
    }
  }
});

t.test('the mcp listings state each tool as it is, in every view and under hazards', async (t) => {
  const server = await startServer(t, { hazardEnv: CONTRACT_HAZARDS });
  const session = await changedSession(server);
  for (const prefix of ['', `/s/${session}`]) {
    for (const path of LISTING_PATHS) {
      const { tools } = (await server.request<{ tools: McpEntry[] }>('GET', `${prefix}${path}?format=mcp`)).body;
      for (const entry of tools) {
        const tool = byName.get(entry.name.replace(/^[a-z-]+__/, ''));
        if (!tool) continue; // a decoy: not a tool of the domains
        const effect = tool.effect ?? { destructive: false, idempotent: true };
        t.strictSame(
          entry.annotations,
          { title: entry.title, readOnlyHint: !tool.mutates, destructiveHint: effect.destructive, idempotentHint: effect.idempotent, openWorldHint: false },
          `${prefix}${path} ${entry.name}`,
        );
        t.match(entry.title, /^[A-Z][a-z0-9 ]+$/);
      }
    }
  }
  const retail = new Map((await server.request<{ tools: McpEntry[] }>('GET', '/retail/tools?format=mcp')).body.tools.map((e) => [e.name, e.annotations]));
  t.match(
    retail.get('cancel_pending_order'),
    { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    'a cancellation is destructive; a second one changes nothing',
  );
  t.match(retail.get('add_to_cart'), { destructiveHint: false, idempotentHint: false }, 'adding to the cart only adds, and adds again');
  t.match(retail.get('get_order_details'), { readOnlyHint: true, destructiveHint: false, idempotentHint: true });
  t.equal((await server.request('GET', '/retail/tools?format=mcp')).body.tools[0].title, 'Find user id by email');
});
