import t from 'tap';
import { domains } from '../../domains/index.js';
import { jsonSchemaOf, type JsonSchema } from '../../lib/json-schema.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { type Args, BASELINES, baselinesOf } from '../helpers/valid-calls.js';

// A strict client (OpenAI strict mode) sends every argument, with null for those it leaves out: the
// server takes such a null as absent, at every depth, and keeps the arguments as sent in the journal.

/** The arguments as a strict client sends them: every optional property it left out, at every depth, as null. */
function asStrictClient(schema: JsonSchema, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => asStrictClient((schema['items'] ?? {}) as JsonSchema, item));
  if (typeof value !== 'object' || value === null || !schema['properties']) return value;
  const properties = schema['properties'] as Record<string, JsonSchema>;
  const record = value as Args;
  return Object.fromEntries(Object.keys(properties).map((name) => [name, name in record ? asStrictClient(properties[name]!, record[name]) : null]));
}

const countNulls = (value: unknown): number =>
  value === null ? 1 : typeof value === 'object' ? Object.values(value as object).reduce<number>((sum, inner) => sum + countNulls(inner), 0) : 0;

/** A call in a fresh session: its status, answer and the journal entry it left. */
async function callFresh(server: TestServer, domain: string, tool: string, args: unknown, options: Record<string, unknown> = {}) {
  const session = await server.newSession({ clock: { step_ms: 0 }, ...options });
  const reply = await server.call(domain, tool, args, session);
  const [entry] = await server.journal(session);
  await server.request('DELETE', `/sessions/${session}`);
  return { status: reply.status, body: reply.body, entry };
}

t.test('null for every optional argument a call leaves out answers as the argument omitted, in every tool', async (t) => {
  const server = await startServer(t);
  let withNulls = 0;
  for (const domain of domains) {
    const baselines = baselinesOf(domain.name);
    for (const tool of domain.tools) {
      const schema = jsonSchemaOf(tool.input, 'input');
      for (const { args, session } of baselines[tool.name] ?? []) {
        const strict = asStrictClient(schema, args);
        const where = `${domain.name}/${tool.name}`;
        const omitted = await callFresh(server, domain.name, tool.name, args, session);
        const nulled = await callFresh(server, domain.name, tool.name, strict, session);
        t.equal(omitted.status, 200, `${where}: the valid arguments succeed`);
        t.strictSame([nulled.status, nulled.body], [omitted.status, omitted.body], `${where}: the same answer with nulls`);
        t.strictSame(nulled.entry.changes, omitted.entry.changes, `${where}: the same changes`);
        t.strictSame(nulled.entry.args, strict, `${where}: the journal keeps the arguments as sent`);
        if (countNulls(strict) > 0) withNulls++;
      }
    }
  }
  t.ok(withNulls >= 60, `${withNulls} tools called with nulls`);
});

t.test('null where the schema takes no null is refused with a 400 naming the field', async (t) => {
  const server = await startServer(t);
  for (const domain of domains) {
    const baselines = baselinesOf(domain.name);
    for (const tool of domain.tools) {
      const schema = jsonSchemaOf(tool.input, 'input');
      const required = (schema['required'] ?? []) as string[];
      const baseline = baselines[tool.name]?.[0];
      if (!baseline) {
        t.fail(`${domain.name}/${tool.name} has no valid arguments in test/helpers/valid-calls.ts`);
        continue;
      }
      const { args, session } = baseline;
      for (const field of required) {
        const refused = await callFresh(server, domain.name, tool.name, { ...args, [field]: null }, session);
        t.equal(refused.status, 400, `${domain.name}/${tool.name}.${field}: null refused`);
        t.ok(
          refused.body.errors?.some((e: { field: string }) => e.field === field),
          `${domain.name}/${tool.name}.${field}: the problem names the field`,
        );
        t.strictSame(refused.entry.changes, [], 'nothing changed');
      }
    }
  }
  // At depth: a required member of an array's objects.
  const [book] = BASELINES['airline']!()['book_reservation']!;
  const passengers = (book!.args['passengers'] as Args[]).map((p, i) => (i === 0 ? { ...p, dob: null } : p));
  const deep = await callFresh(server, 'airline', 'book_reservation', { ...book!.args, passengers }, book!.session);
  t.equal(deep.status, 400);
  t.ok(
    deep.body.errors.some((e: { field: string }) => e.field === 'passengers.0.dob'),
    'a nested field is named with its path',
  );
});

t.test('an idempotent retry may send as null what the first call left out, and the other way round', async (t) => {
  const server = await startServer(t);
  const [add] = BASELINES['retail']!()['add_to_cart']!;
  const session = await server.newSession();
  const { quantity: _quantity, ...rest } = add!.args;
  const first = await server.call('retail', 'add_to_cart', { ...rest, quantity: null, idempotency_key: 'k-1' }, session);
  const again = await server.call('retail', 'add_to_cart', { ...rest, idempotency_key: 'k-1' }, session);
  t.same([first.status, again.status], [200, 200]);
  t.strictSame(again.body, first.body, 'replayed, not refused as reused');
  const other = await server.call('retail', 'add_to_cart', { ...rest, quantity: 2, idempotency_key: 'k-1' }, session);
  t.equal(other.body.code, 'idempotency_key_reused', 'other arguments under the key are still refused');
});

t.test('under spec drift, null for the renamed optional argument is taken as absent too', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARD__SPEC_DRIFT__WEATHER_HOURLY: '1' } });
  const [hourly] = BASELINES['weather']!()['weather_hourly']!;
  const session = await server.newSession(hourly!.session);
  const { hours: _hours, ...rest } = hourly!.args;
  t.equal((await server.call('weather', 'weather_hourly', rest, session)).status, 200, 'before the drift');
  const drifted = await server.call('weather', 'weather_hourly', { ...rest, horizon_hours: null }, session);
  t.equal(drifted.status, 200, `after the drift, with the new name as null (${drifted.text.slice(0, 120)})`);
});
