import t from 'tap';
import { domains } from '../../domains/index.js';
import { contractOf } from '../../hazards/contract.js';
import { CONTRACT_HAZARDS, changedSession, LISTING_PATHS } from '../helpers/listing-views.js';
import { strictViolations } from '../helpers/openai-strict.js';
import { startServer } from '../helpers/server.js';

type Schema = Record<string, any>;
type ChatEntry = { type: string; function: { name: string; description: string; parameters: Schema; strict?: boolean } };
type ResponsesEntry = { type: string; name: string; description: string; parameters: Schema; strict: boolean };

const takesNull = (schema: Schema): boolean =>
  schema['type'] === 'null' || (Array.isArray(schema['type']) && schema['type'].includes('null')) || (schema['anyOf'] ?? []).some(takesNull);
const optionalOf = (schema: Schema) => Object.keys(schema['properties']).filter((name) => !(schema['required'] ?? []).includes(name));
const nullableOf = (schema: Schema) =>
  Object.entries(schema['properties'] as Record<string, Schema>).flatMap(([name, property]) => (takesNull(property) ? [name] : []));

t.test('strict listings obey every rule of OpenAI strict mode, in every view and under hazards that change contracts', async (t) => {
  const server = await startServer(t, { hazardEnv: CONTRACT_HAZARDS });
  const session = await changedSession(server);
  for (const prefix of ['', `/s/${session}`]) {
    for (const path of LISTING_PATHS) {
      const where = `${prefix}${path}`;
      const chat = (await server.request<ChatEntry[]>('GET', `${where}?format=openai&strict=true`)).body;
      const responses = (await server.request<ResponsesEntry[]>('GET', `${where}?format=openai-responses&strict=true`)).body;
      const plain = (await server.request<ChatEntry[]>('GET', `${where}?format=openai`)).body;
      t.equal(chat.length, plain.length, `${where}: every tool listed`);
      let refused = 0;
      chat.forEach((entry, i) => {
        const { name, parameters } = entry.function;
        t.strictSame(strictViolations(name, parameters), [], `${where} ${name}: strict mode accepts it`);
        t.equal(entry.function.strict, true);
        t.strictSame(
          responses[i],
          { type: 'function', name, description: entry.function.description, parameters, strict: true },
          `${where} ${name}: the same tool flat`,
        );
        const declared = plain[i]!.function.parameters;
        // A model leaves out an optional argument by sending null: exactly the optional ones take null.
        t.strictSame(nullableOf(parameters).sort(), optionalOf(declared).sort(), `${where} ${name}: the optional arguments, and only they, take null`);
        if (strictViolations(name, declared).length > 0) refused++;
      });
      t.ok(refused > 0, `${where}: the checker refuses ${refused} of ${plain.length} schemas as declared`);
    }
  }
  // The session's contracts did change: a required argument (invocation_error) is not nullable, a renamed one is listed.
  const sessionRetail = (await server.request<ChatEntry[]>('GET', `/s/${session}/retail/tools?format=openai&strict=true`)).body;
  const checkout = sessionRetail.find((entry) => entry.function.name === 'checkout')!.function.parameters;
  t.same(checkout['properties']['idempotency_key'].type, 'string', 'an argument a hazard requires is not nullable');
  t.ok(
    'order_ref' in sessionRetail.find((entry) => entry.function.name === 'get_order_details')!.function.parameters['properties'],
    'a drifted name is listed',
  );
  t.ok(
    sessionRetail.some((entry) => !domains[0]!.tools.some((tool) => tool.name === entry.function.name)),
    'decoys are listed',
  );
});

t.test('without strict, the openai listing is the contracts as declared, and the responses listing says strict: false', async (t) => {
  const server = await startServer(t);
  for (const domain of domains) {
    const contracts = domain.tools.map((tool) => contractOf(tool));
    const chat = await server.request('GET', `/${domain.name}/tools?format=openai`);
    const expected = contracts.map((c) => ({ type: 'function', function: { name: c.name, description: c.description, parameters: c.input } }));
    t.equal(chat.text, JSON.stringify(expected), `${domain.name}: byte for byte as before`);
    const responses = (await server.request('GET', `/${domain.name}/tools?format=openai-responses`)).body;
    t.strictSame(
      responses,
      contracts.map((c) => ({ type: 'function', name: c.name, description: c.description, parameters: c.input, strict: false })),
    );
  }
  const words = (await server.request<ChatEntry[]>('GET', '/retail/tools?format=openai&strict=true')).body;
  const cancel = words.find((entry) => entry.function.name === 'cancel_pending_order')!.function.parameters;
  t.match(cancel['properties']['idempotency_key'].description, /at most 255 characters/, 'a dropped constraint is stated in words');
  const search = words.find((entry) => entry.function.name === 'list_user_orders')!.function.parameters;
  t.ok(
    Object.values(search['properties'] as Record<string, Schema>).some((property) => /default/.test(property['description'])),
    'a default is stated in words',
  );

  for (const format of ['native', 'anthropic', 'mcp']) {
    const refused = await server.request('GET', `/retail/tools?format=${format}&strict=true`);
    t.equal(refused.status, 400, `strict with ${format} is refused`);
    t.equal(refused.body.errors[0].field, 'strict');
  }
  const bad = await server.request('GET', '/retail/tools?format=openai&strict=yes');
  t.same([bad.status, bad.body.errors[0].field], [400, 'strict']);
});
