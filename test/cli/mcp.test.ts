import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { retail } from '../../domains/retail/index.js';
import { retailFixture } from '../helpers/retail.js';

// `wildtools mcp --domain retail`, started by the MCP SDK's stdio client as a desktop client starts it.

const main = new URL('../../cli/main.ts', import.meta.url).pathname;
const order = Object.values(retailFixture().orders)[0]!;
/** The child is compiled by tsx, not tap's loader: its coverage of the same files would not merge with the tests'. */
const env = { ...process.env, _TAPJS_PROCESSINFO_COVERAGE_: '0' } as Record<string, string>;

t.test('a stdio client lists the domain and calls a tool; a bad domain is a usage error', async (t) => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', main, 'mcp', '--domain', 'retail', '--log-level', 'warn'],
    env,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'desktop', version: '1' });
  await client.connect(transport);
  t.teardown(() => client.close());
  const { tools } = await client.listTools();
  t.same(
    tools.map((tool) => tool.name),
    retail.tools.map((tool) => tool.name),
    'the retail tools',
  );
  t.match(client.getInstructions(), /retail/i, 'the policy as instructions');
  const result = (await client.callTool({ name: 'get_order_details', arguments: { order_id: order.order_id } })) as CallToolResult;
  t.equal(result.structuredContent?.['order_id'], order.order_id, 'the order');

  const bad = new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', main, 'mcp', '--domain', 'groceries'], env, stderr: 'pipe' });
  const exited = new Promise<string>((resolve) => {
    let text = '';
    bad.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    bad.onclose = () => resolve(text);
  });
  await bad.start();
  t.match(await exited, /--domain: no domain 'groceries'/, 'names the flag and the choices');
});
