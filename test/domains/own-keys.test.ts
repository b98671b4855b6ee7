import t from 'tap';
import { type Args, baselinesOf } from '../helpers/valid-calls.js';
import { domains } from '../../domains/index.js';
import type { AnyTool } from '../../domains/tool.js';
import { jsonSchemaOf, type JsonSchema } from '../../lib/json-schema.js';
import { startServer, type Reply } from '../helpers/server.js';
import { INHERITED, isIdLike } from '../helpers/keys.js';

// A client's key must never find what a plain object inherits from Object.prototype. For every tool of
// every domain, each id-like field of otherwise valid arguments gets each inherited name in turn: the
// call must be refused as an unknown id is (same status, same problem code), with problem JSON, and
// the session's database must stay as it was. The valid arguments themselves must then succeed.

/** An id no database holds: what an inherited name must be treated as. */
const UNKNOWN = 'zz-no-such-key';

type Path = readonly (string | number)[];

/** The problem detail an inherited name must get where tau2-bench words it, by "domain/tool/field". */
const EXACT: Record<string, (name: string) => string> = {
  // The three cases observed to answer 200 before the fix.
  'retail/modify_pending_order_payment/payment_method_id': () => 'Payment method not found',
  'retail/checkout/payment_method_id': () => 'Payment method not found',
  'retail/get_item_details/item_id': () => 'Item not found',
  // Others where the unknown id is worded by tau2-bench.
  'retail/add_to_cart/item_id': () => 'Item not found',
  'retail/modify_pending_order_items/new_item_ids': () => 'Variant not found',
  'retail/exchange_delivered_order_items/new_item_ids': () => 'Variant not found',
  'retail/return_delivered_order_items/payment_method_id': () => 'Payment method not found',
  'airline/update_reservation_baggages/payment_id': () => 'Payment method not found',
  'airline/update_reservation_flights/payment_id': () => 'Payment method not found',
  'airline/book_reservation/payment_id': (name) => `Payment method ${name} not found`,
};

// ---- where the ids are -----------------------------------------------------------------------

/** Paths of the id-like strings of a value of arguments: "item_ids.0", "flights.0.date", … */
function idPaths(value: unknown, path: Path = []): Path[] {
  const name = [...path].reverse().find((key) => typeof key === 'string');
  if (typeof value === 'string') return name !== undefined && isIdLike(name) ? [path] : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => (i === 0 ? idPaths(item, [...path, i]) : []));
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([key, item]) => idPaths(item, [...path, key]));
  return [];
}

/** Names of the id-like string properties a JSON schema declares, at any depth. */
function idFieldsOf(schema: JsonSchema, name?: string): string[] {
  const found: string[] = [];
  const isString = schema['type'] === 'string' || (Array.isArray(schema['enum']) && schema['enum'].every((v) => typeof v === 'string'));
  if (isString && name !== undefined && isIdLike(name)) found.push(name);
  const properties = schema['properties'] as Record<string, JsonSchema> | undefined;
  for (const [key, sub] of Object.entries(properties ?? {})) found.push(...idFieldsOf(sub, key));
  if (schema['items']) found.push(...idFieldsOf(schema['items'] as JsonSchema, name));
  for (const branch of ['anyOf', 'oneOf', 'allOf'] as const)
    for (const sub of (schema[branch] as JsonSchema[] | undefined) ?? []) found.push(...idFieldsOf(sub, name));
  return found;
}

const fieldOf = (path: Path): string => String([...path].reverse().find((key) => typeof key === 'string'));

function withValue(args: Args, path: Path, value: string): Args {
  const copy = structuredClone(args);
  let target: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string | number, unknown>;
  target[path.at(-1)!] = value;
  return copy;
}

// ---- the test --------------------------------------------------------------------------------

t.test('a client key naming a member of Object.prototype is an unknown id, in every tool', async (t) => {
  const server = await startServer(t);
  const diff = async (session: string) => (await server.request('GET', `/sessions/${session}/diff`)).body;
  const exercised = new Set<string>();

  for (const domain of domains) {
    const baselines = baselinesOf(domain.name);
    t.strictSame(
      Object.keys(baselines).sort(),
      domain.tools.map((tool) => tool.name).sort(),
      `${domain.name}: valid arguments for every tool, and for no other (test/helpers/valid-calls.ts, ${domain.name}'s baselines)`,
    );

    for (const tool of domain.tools as readonly AnyTool[]) {
      const cases = baselines[tool.name] ?? [];
      const covered = new Set(cases.flatMap(({ args }) => idPaths(args).map(fieldOf)));
      for (const field of new Set(idFieldsOf(jsonSchemaOf(tool.input, 'input')))) {
        t.ok(covered.has(field), `${domain.name}/${tool.name}: the valid arguments hold its id-like field ${field}`);
      }

      for (const { args, session: options = {} } of cases) {
        await t.test(`${domain.name}/${tool.name} ${JSON.stringify(args).slice(0, 80)}`, async (t) => {
          // Every call in a session of its own, so that what a wrongly accepted call changed spoils no other.
          const fresh = async <T>(use: (session: string) => Promise<T>): Promise<T> => {
            const session = await server.newSession({ clock: { step_ms: 0 }, ...options });
            try {
              return await use(session);
            } finally {
              await server.request('DELETE', `/sessions/${session}`);
            }
          };
          const before = await fresh(diff);
          for (const path of idPaths(args)) {
            const where = `${tool.name}.${path.join('.')}`;
            const unknown = await fresh((session) => server.call(domain.name, tool.name, withValue(args, path, UNKNOWN), session));
            t.ok(unknown.status >= 400 && unknown.status < 500, `${where}: an unknown id is refused (${unknown.status})`);
            for (const name of INHERITED) {
              const label = `${where} = ${name}`;
              const [reply, after] = await fresh(
                async (session): Promise<[Reply<any>, unknown]> => [
                  await server.call(domain.name, tool.name, withValue(args, path, name), session),
                  await diff(session),
                ],
              );
              t.ok(reply.status >= 400 && reply.status < 500, `${label}: 4xx (got ${reply.status}: ${reply.text.slice(0, 120)})`);
              t.match(reply.headers['content-type'], /^application\/problem\+json/, `${label}: problem JSON`);
              t.equal(reply.body?.status, reply.status, `${label}: the problem names its status`);
              t.same([reply.status, reply.body?.code], [unknown.status, unknown.body?.code], `${label}: answered as an unknown id`);
              const exact = EXACT[`${domain.name}/${tool.name}/${fieldOf(path)}`];
              if (exact) {
                exercised.add(`${domain.name}/${tool.name}/${fieldOf(path)}`);
                t.equal(reply.body?.detail, exact(name), `${label}: tau2-bench's message`);
              }
              t.same(after, before, `${label}: nothing changed`);
            }
          }
          const valid = await fresh((session) => server.call(domain.name, tool.name, args, session));
          t.equal(valid.status, 200, `${tool.name}: the valid arguments succeed (${valid.text.slice(0, 160)})`);
        });
      }
    }
  }

  t.strictSame([...exercised].sort(), Object.keys(EXACT).sort(), 'every case with an exact message was exercised');
});
