import t from 'tap';
import { domains } from '../../domains/index.js';
import { retail } from '../../domains/retail/index.js';
import { startServer } from '../helpers/server.js';

const names = retail.tools.map((tool) => tool.name);

t.test('listings in every format have the right shapes', async (t) => {
  const server = await startServer(t);

  const native = (await server.request('GET', '/retail/tools')).body;
  t.same(
    native.tools.map((x: { name: string }) => x.name),
    names,
  );
  for (const tool of native.tools) {
    t.match(tool, {
      name: String,
      description: String,
      mutates: Boolean,
      endpoint: `/retail/tools/${tool.name}`,
      input_schema: { type: 'object' },
      output_schema: Object,
    });
    t.equal(tool.input_schema.additionalProperties, false, `${tool.name}: unknown arguments are refused`);
  }
  const cancel = native.tools.find((x: { name: string }) => x.name === 'cancel_pending_order');
  t.same(cancel.input_schema.required, ['order_id', 'reason']);
  t.type(cancel.input_schema.properties.order_id.description, 'string', 'every field is described');
  t.equal(cancel.mutates, true);

  const openai = (await server.request('GET', '/retail/tools?format=openai')).body;
  t.equal(openai.length, names.length);
  for (const entry of openai)
    t.match(entry, { type: 'function', function: { name: String, description: String, parameters: { type: 'object', properties: Object } } });

  const anthropic = (await server.request('GET', '/retail/tools?format=anthropic')).body;
  t.equal(anthropic.length, names.length);
  for (const entry of anthropic) {
    t.match(entry, { name: String, description: String, input_schema: { type: 'object' } });
    t.ok(/^[a-zA-Z0-9_-]{1,64}$/.test(entry.name), 'names fit the Anthropic and OpenAI name rules');
  }

  const mcp = (await server.request('GET', '/retail/tools?format=mcp')).body;
  t.equal(mcp.tools.length, names.length);
  for (const entry of mcp.tools) t.match(entry, { name: String, description: String, inputSchema: { type: 'object' }, annotations: { readOnlyHint: Boolean } });
  t.equal(mcp.tools.find((x: { name: string }) => x.name === 'get_order_details').outputSchema.type, 'object', 'object results carry an outputSchema');
  t.notOk('outputSchema' in mcp.tools.find((x: { name: string }) => x.name === 'calculate'), 'string results carry none (MCP requires an object schema)');
  t.equal(mcp.tools.find((x: { name: string }) => x.name === 'cancel_pending_order').annotations.readOnlyHint, false);

  const bad = await server.request('GET', '/retail/tools?format=xml');
  t.equal(bad.status, 400);
  t.equal(bad.body.errors[0].field, 'format');
});

t.test('the combined view and the domain list', async (t) => {
  const server = await startServer(t);
  const combined = (await server.request('GET', '/tools')).body;
  const combinedNames: string[] = combined.tools.map((x: { name: string }) => x.name);
  const expected = new Set<string>();
  const owners = new Map<string, Set<unknown>>();
  for (const domain of domains) for (const tool of domain.tools) owners.set(tool.name, (owners.get(tool.name) ?? new Set()).add(tool));
  for (const domain of domains) for (const tool of domain.tools) expected.add(owners.get(tool.name)!.size > 1 ? `${domain.name}__${tool.name}` : tool.name);
  t.same([...combinedNames].sort(), [...expected].sort(), 'every tool once; names two different tools share are qualified by domain');
  t.equal(new Set(combinedNames).size, combinedNames.length, 'no name clash is left');
  t.ok(combinedNames.filter((name) => name === 'calculate').length === 1, 'a shared utility is one tool');
  t.equal(combined.tools[0].endpoint, `/tools/${combined.tools[0].name}`);
  const call = await server.request('POST', '/tools/calculate', { expression: '6 * 7' });
  t.same([call.status, call.body], [200, '42.0'], 'combined routes call the same tools');
  const listed = (await server.request('GET', '/domains')).body;
  t.same(
    listed.map((d: { name: string }) => d.name),
    domains.map((d) => d.name),
  );
  t.match(listed, [{ name: 'retail', tools: names.length, endpoints: { tools: '/retail/tools', openapi: '/retail/openapi.json', policy: '/retail/policy' } }]);
  const policy = await server.request('GET', '/retail/policy');
  t.match(policy.headers['content-type'], /text\/markdown/);
  t.match(policy.text, /explicit/);
  t.match((await server.request('GET', '/health')).body, { status: 'ok', version: String });
});
