import fc from 'fast-check';
import t, { type Test } from 'tap';
import { parseProxyConfig } from '../../../server/proxy/config.js';
import { buildUpstreams } from '../../../server/proxy/proxies.js';
import { startServer } from '../../helpers/server.js';

// Fuzzed requests against the mock (bounded for CI; MOCK_FUZZ_RUNS scales it): with no hazard on, no answer
// is a 5xx, and every answer the mock gives is JSON (or empty for a 204). With transient failures on, a 5xx is always one
// the journal says was injected.

const RUNS = Number(process.env['MOCK_FUZZ_RUNS'] ?? 300);
const DOCS = 'test/server/proxy/mock-documents';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const segment = fc.oneof(fc.constantFrom('t_100', 't_101', 'ticket_1', 'ticket_2', '1', '0', '-1', 'x', '%zz', '..', ''), fc.string({ maxLength: 12 }));
const cursor = fc.oneof(fc.constantFrom('mc1.b2Zmc2V0OjI', 'mc1.b2Zmc2V0Ojk5OTk5OTk5OTk', 'mc1.', 'x'), fc.string({ maxLength: 16 }));
const path = fc.oneof(
  fc.constantFrom('/desk/tickets', '/desk/health', '/library/books', '/library/loans', '/desk/tickets?limit=5', '/desk/tickets?limit=999&status=x'),
  segment.map((id) => `/desk/tickets/${encodeURIComponent(id)}`),
  segment.map((id) => `/desk/tickets/${encodeURIComponent(id)}/archive`),
  segment.map((id) => `/library/books/${encodeURIComponent(id)}`),
  segment.map((id) => `/library/books/${encodeURIComponent(id)}/borrow`),
  // The helpdesk example: comments below a ticket, an x-wildtools update, pages by limit and cursor.
  segment.map((id) => `/help/tickets/${encodeURIComponent(id)}/comments`),
  segment.map((id) => `/help/tickets/${encodeURIComponent(id)}/escalate`),
  fc.tuple(fc.integer({ min: -2, max: 30 }), cursor).map(([limit, at]) => `/help/tickets?limit=${limit}&cursor=${encodeURIComponent(at)}`),
  fc.constantFrom('/help/tickets', '/help/agents', '/help/tickets?status=open', '/help/tickets?assignee_id=agent_1&limit=1'),
);
const member = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('low', 'urgent', 'open', 'ann@example.org', 'x'.repeat(100), 0, 40, 41, null));
const body = fc.oneof(
  fc.constant(undefined),
  fc.dictionary(
    fc.constantFrom(
      'title',
      'priority',
      'estimate_hours',
      'tags',
      'contact',
      'status',
      'isbn',
      'price',
      'format',
      'id',
      'ticketId',
      'due',
      'subject',
      'requester_email',
      'body',
      'author',
      'assignee_id',
    ),
    member,
  ),
  fc.jsonValue({ maxDepth: 3 }),
);
const request = fc.record({
  method: fc.constantFrom(...METHODS),
  path,
  body,
  reason: fc.option(fc.string({ maxLength: 8 })),
  key: fc.option(fc.constantFrom('k1', 'k2', '')),
});

async function fuzz(t: Test, hazardEnv: NodeJS.ProcessEnv, check: (status: number, injected: boolean) => string | undefined) {
  const config = parseProxyConfig(
    {
      desk: { openapi: `${DOCS}/helpdesk.yaml`, mock: { seed_file: `${DOCS}/seed.yaml` } },
      library: { openapi: `${DOCS}/library.json` },
      help: { openapi: 'examples/helpdesk/openapi.yaml', mock: { seed_file: 'examples/helpdesk/seed.yaml', max_records: 5 } },
    },
    'fuzz',
  );
  const server = await startServer(t, { proxies: await buildUpstreams(config, 'fuzz'), hazardEnv });
  const session = await server.newSession({ seed: 'fuzz' });
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(request, async ({ method, path, body, reason, key }) => {
      const headers: Record<string, string> = { ...(reason === null ? {} : { 'x-reason': reason }), ...(key === null ? {} : { 'idempotency-key': key }) };
      const reply = await server.request(method, `/s/${session}/proxy${path}`, body, headers);
      statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
      const last = (await server.journal(session)).at(-1);
      const injected = reply.status >= 500 && last !== undefined && last.status === reply.status && last.hazards.length > 0;
      const wrong = check(reply.status, injected);
      if (wrong) throw new Error(`${method} ${path} ${JSON.stringify(body)}: ${wrong}: ${reply.text.slice(0, 300)}`);
      // An injected failure speaks in a real server's style (text, HTML); the mock's own answers are JSON.
      if (!injected && reply.status !== 204 && reply.text !== '') JSON.parse(reply.text);
    }),
    { numRuns: RUNS, seed: 20261129 },
  );
  return statuses;
}

t.test('no hazard on: fuzzed requests never get a 5xx', async (t) => {
  const statuses = await fuzz(t, {}, (status) => (status >= 500 ? `an uninjected ${status}` : undefined));
  t.ok([...statuses.keys()].some((status) => status < 300) && [...statuses.keys()].some((status) => status >= 400), 'both successes and refusals');
  t.comment(`statuses: ${[...statuses].map(([s, n]) => `${s}×${n}`).join(' ')}`);
});

t.test('transient failures on: every 5xx is an injected one', async (t) => {
  const statuses = await fuzz(t, { HAZARDS: 'transient_failure', HAZARD_SEED: '7' }, (status, injected) =>
    status >= 500 && !injected ? `an uninjected ${status}` : undefined,
  );
  t.ok(
    [...statuses.keys()].some((status) => status >= 500),
    'some failures were injected',
  );
});

t.test('generated values fit the schemas they come from, for any seed; a recursive schema stays bounded', async (t) => {
  const { generate } = await import('../../../server/proxy/mock/generate.js');
  const { validate } = await import('../../../server/proxy/mock/validate.js');
  const { Random } = await import('../../../lib/random.js');
  const { loadDocument } = await import('../../../server/proxy/document.js');
  const documents = [await loadDocument(`${DOCS}/helpdesk.yaml`, 't'), await loadDocument(`${DOCS}/library.json`, 't')];
  let checked = 0;
  for (const document of documents) {
    const schemas = Object.keys((document['components'] as { schemas: Record<string, unknown> }).schemas);
    fc.assert(
      fc.property(fc.constantFrom(...schemas), fc.string(), (name, seed) => {
        const ref = { $ref: `#/components/schemas/${name}` };
        const errors: { field: string; message: string }[] = [];
        validate(document, ref, generate(document, ref, new Random(seed)), '', errors);
        checked += 1;
        if (errors.length > 0) throw new Error(`${name} with seed ${JSON.stringify(seed)}: ${JSON.stringify(errors)}`);
      }),
      { numRuns: RUNS, seed: 20261129 },
    );
  }
  t.equal(checked, 2 * RUNS, 'every generated value validated');
  const tree = {
    components: {
      schemas: {
        Node: {
          type: 'object',
          properties: { a: { $ref: '#/components/schemas/Node' }, b: { type: 'array', minItems: 5, items: { $ref: '#/components/schemas/Node' } } },
        },
      },
    },
  };
  const value = generate(tree, { $ref: '#/components/schemas/Node' }, new Random('deep'));
  t.ok(JSON.stringify(value).length < 100_000, 'a recursive schema gives a bounded value');
  const huge = { type: 'object', properties: { text: { type: 'string', minLength: 1e9 }, list: { type: 'array', minItems: 1e9, items: { type: 'integer' } } } };
  const bounded = generate({}, huge, new Random('huge')) as { text: string; list: unknown[] };
  t.ok(bounded.text.length <= 4096 && bounded.list.length <= 55, "a document's huge minimums are capped");
});

t.test("a schema's example is served only when it fits the schema", async (t) => {
  const { generate } = await import('../../../server/proxy/mock/generate.js');
  const { Random } = await import('../../../lib/random.js');
  const document = {};
  const fits = { type: 'string', enum: ['open', 'closed'], example: 'open' };
  const wrong = { type: 'string', enum: ['open', 'closed'], example: '"open"' };
  const wrongType = { type: 'string', example: { nested: true } };
  t.equal(generate(document, fits, new Random('e')), 'open', 'a fitting example is the value');
  t.match(generate(document, wrong, new Random('e')), /^(open|closed)$/, "an example outside the enum is not (GitHub's quoted enum examples)");
  t.type(generate(document, wrongType, new Random('e')), 'string', "nor one of another type (Rebilly's object for a string)");
  t.equal(generate(document, { type: 'integer', examples: [7, 'x'] }, new Random('e')), 7, 'the first of `examples` too');
});
