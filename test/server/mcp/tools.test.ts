import t from 'tap';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { domains } from '../../../domains/index.js';
import { combinedNames } from '../../../server/core/registry.js';
import { baselinesOf } from '../../helpers/valid-calls.js';
import { connectMcp } from '../../helpers/mcp.js';
import { startServer } from '../../helpers/server.js';
import { isObject } from '../../../lib/object.js';

// A real MCP SDK client lists every tool at /mcp and at each /{domain}/mcp, and calls each with valid
// arguments: the answer is the one REST gives, as text and (for an object) as structured content the
// client's own validator checks against the listed output schema.

t.test('/mcp lists every tool under its combined name; /{domain}/mcp lists the domain and gives its policy', async (t) => {
  const server = await startServer(t);
  const all = await connectMcp(t, `${server.origin}/mcp`);
  const { tools } = await all.client.listTools();
  const rest = await server.request<{ tools: { name: string }[] }>('GET', '/tools');
  const distinct = new Set(domains.flatMap((domain) => domain.tools)).size;
  t.equal(tools.length, distinct, `every tool of every domain, a shared utility once (${distinct})`);
  t.same(
    tools.map((tool) => tool.name),
    rest.body.tools.map((tool) => tool.name),
    'the same names as GET /tools',
  );
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  for (const domain of domains)
    for (const tool of domain.tools) {
      const listed = byName.get(combinedNames(domains).get(tool)!.get(domain.name)!)!;
      t.equal(listed.annotations?.readOnlyHint, !tool.mutates, `${tool.name}: readOnlyHint says whether it writes`);
      if (tool.mutates)
        t.same(
          [listed.annotations?.destructiveHint, listed.annotations?.idempotentHint],
          [tool.effect?.destructive, tool.effect?.idempotent],
          `${tool.name}: its declared effect`,
        );
    }
  t.equal(byName.get('cancel_pending_order')!.annotations?.destructiveHint, true, 'a cancellation is destructive');
  for (const domain of domains) {
    const one = await connectMcp(t, `${server.origin}/${domain.name}/mcp`);
    t.same(
      (await one.client.listTools()).tools.map((tool) => tool.name),
      domain.tools.map((tool) => tool.name),
      `${domain.name}: its tools`,
    );
    const policy = await server.request('GET', `/${domain.name}/policy`);
    t.equal(one.client.getInstructions(), policy.text, `${domain.name}: the instructions are the policy`);
    t.match(one.client.getServerCapabilities(), { tools: { listChanged: true } }, 'announces list changes');
  }
});

t.test('every tool called over MCP answers as over REST', async (t) => {
  const server = await startServer(t, { sessions: { maxSessions: 400 } });
  const names = combinedNames(domains);
  const listed = new Map((await (await connectMcp(t, `${server.origin}/mcp`)).client.listTools()).tools.map((tool) => [tool.name, tool]));
  const validator = new AjvJsonSchemaValidator();
  for (const domain of domains) {
    const baselines = baselinesOf(domain.name);
    for (const tool of domain.tools) {
      const baseline = baselines[tool.name]?.[0];
      if (!baseline) {
        t.fail(`${domain.name}/${tool.name} has no valid arguments in test/helpers/valid-calls.ts`);
        continue;
      }
      const viaRest = await server.newSession(baseline.session ?? {});
      const viaMcp = await server.newSession(baseline.session ?? {});
      const expected = await server.call(domain.name, tool.name, baseline.args, viaRest);
      t.equal(expected.status, 200, `${domain.name}/${tool.name} succeeds over REST`);
      const mcp = await connectMcp(t, `${server.origin}/s/${viaMcp}/mcp`);
      const name = names.get(tool)!.get(domain.name)!;
      const result = await mcp.client.callTool({ name, arguments: baseline.args });
      t.notOk(result.isError, `${name}: no error`);
      const [content] = result.content as { type: string; text: string }[];
      t.same(JSON.parse(content!.text), expected.body, `${name}: the REST answer, as text`);
      const outputSchema = listed.get(name)!.outputSchema;
      if (isObject(expected.body)) {
        t.same(result.structuredContent, expected.body, `${name}: and as structured content`);
        t.ok(outputSchema, `${name}: an object answer has its output schema listed`);
        const check = validator.getValidator(outputSchema!)(result.structuredContent);
        t.ok(check.valid, `${name}: the structured content matches the listed output schema ${check.errorMessage ?? ''}`);
      } else t.notOk(result.structuredContent, `${name}: no structured content for a ${typeof expected.body}`);
      const diff = (id: string) => server.request('GET', `/sessions/${id}/diff`).then((reply) => reply.body);
      t.same(await diff(viaMcp), await diff(viaRest), `${name}: the same changes`);
      await mcp.close();
      for (const id of [viaRest, viaMcp]) await server.request('DELETE', `/sessions/${id}`);
    }
  }
});
