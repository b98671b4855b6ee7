import t from 'tap';
import { raw } from '../helpers/raw-http.js';
import { startServer } from '../helpers/server.js';
import { findOrder } from '../helpers/retail.js';

const order = findOrder((o) => o.status === 'pending');

t.test('bad input gets a 4xx problem, never a 500, and changes nothing', async (t) => {
  const server = await startServer(t);
  const session = await server.newSession();
  const url = `/s/${session}/retail/tools/cancel_pending_order`;
  const json = { 'content-type': 'application/json' };
  const cases: { name: string; body: unknown; headers?: Record<string, string>; status: number; code: string; field?: string; detail?: RegExp }[] = [
    { name: 'malformed JSON', body: '{"order_id": "#W1",', headers: json, status: 400, code: 'malformed_json', detail: /not valid JSON \(.+\)/ },
    { name: 'empty JSON body', body: '', headers: json, status: 400, code: 'empty_json_body' },
    {
      name: '__proto__ key',
      body: '{"__proto__": {"admin": true}, "order_id": "x", "reason": "no longer needed"}',
      headers: json,
      status: 400,
      code: 'forbidden_json_key',
      detail: /__proto__/,
    },
    { name: 'constructor.prototype key', body: '{"constructor": {"prototype": {"x": 1}}}', headers: json, status: 400, code: 'forbidden_json_key' },
    { name: 'an array instead of an object', body: [order.order_id, 'no longer needed'], status: 400, code: 'invalid_input', field: 'arguments' },
    {
      name: 'a wrong type',
      body: { order_id: 1234, reason: 'no longer needed' },
      status: 400,
      code: 'invalid_input',
      field: 'order_id',
      detail: /order_id: expected string, got number/,
    },
    { name: 'a missing field', body: { order_id: order.order_id }, status: 400, code: 'invalid_input', field: 'reason', detail: /reason: required/ },
    {
      name: 'an unknown field',
      body: { order_id: order.order_id, reason: 'no longer needed', force: true },
      status: 400,
      code: 'invalid_input',
      field: 'force',
      detail: /unknown field 'force'/,
    },
    { name: 'null', body: 'null', headers: json, status: 400, code: 'invalid_input' },
    { name: 'a plain-text body', body: 'cancel it please', headers: { 'content-type': 'text/plain' }, status: 415, code: 'unsupported_media_type' },
    { name: 'a form body', body: 'order_id=x', headers: { 'content-type': 'application/x-www-form-urlencoded' }, status: 415, code: 'unsupported_media_type' },
    {
      name: 'nesting past the limit',
      body: `{"order_id": ${'['.repeat(65)}${']'.repeat(65)}}`,
      headers: json,
      status: 400,
      code: 'json_too_deep',
      detail: /deeper than 64 levels/,
    },
    {
      name: 'nesting 5,000 levels deep',
      body: `{"order_id": "x", "reason": "no longer needed", "x": ${'['.repeat(5000)}${']'.repeat(5000)}}`,
      headers: json,
      status: 400,
      code: 'json_too_deep',
    },
    { name: 'an unsupported media type', body: '<order/>', headers: { 'content-type': 'application/xml' }, status: 415, code: 'unsupported_media_type' },
    { name: 'a body over 1 MiB', body: JSON.stringify({ order_id: 'x'.repeat(1_100_000), reason: 'r' }), headers: json, status: 413, code: 'body_too_large' },
  ];
  for (const c of cases) {
    const reply = await server.request('POST', url, c.body, c.headers);
    t.equal(reply.status, c.status, `${c.name}: status`);
    t.match(reply.headers['content-type'], /^application\/problem\+json/, `${c.name}: problem JSON`);
    t.match(reply.body, { status: c.status, code: c.code, title: String, detail: String, type: String }, `${c.name}: problem members`);
    if (c.field)
      t.ok(
        reply.body.errors.some((e: { field: string }) => e.field === c.field),
        `${c.name}: names the field ${c.field}`,
      );
    if (c.detail) t.match(reply.body.detail, c.detail, `${c.name}: detail says what was expected`);
  }
  t.same((await server.request('GET', `/sessions/${session}/diff`)).body.retail, [], 'no record changed');
  t.equal((await server.request('GET', '/health')).status, 200, 'the server is still up');
  t.equal((await server.request('GET', `/sessions/${session}/journal`)).status, 200, 'the journal still answers');
  t.equal(({}.constructor as unknown as { admin?: boolean }).admin, undefined, 'no prototype was polluted');
});

t.test('unknown tools, domains and routes', async (t) => {
  const server = await startServer(t);
  const typo = await server.call('retail', 'get_ordr_details', {});
  t.equal(typo.status, 404);
  t.equal(typo.body.code, 'unknown_tool');
  t.equal(typo.body.suggestions[0], 'get_order_details', 'names the near match first');
  t.match(typo.body.detail, /get_order_details/);

  const far = await server.call('retail', 'launch_rocket', {});
  t.equal(far.status, 404);
  t.same(far.body.suggestions, [], 'no far-fetched suggestions');

  const domain = await server.call('retale', 'get_order_details', {});
  t.equal(domain.status, 404);
  t.equal(domain.body.code, 'unknown_domain');
  t.same(domain.body.suggestions, ['retail']);

  const get = await server.request('GET', '/retail/tools/get_order_details');
  t.equal(get.status, 405, 'a tool called with GET');
  t.equal(get.headers['allow'], 'POST');

  const route = await server.request('GET', '/sessions/x/nothing');
  t.equal(route.status, 404);
  t.equal(route.body.code, 'not_found');

  const combined = await server.request('POST', '/tools/get_ordr_details', {});
  t.equal(combined.status, 404);
  t.match(combined.body.detail, /combined view/);
});

t.test('a tool without arguments accepts an absent body', async (t) => {
  const server = await startServer(t);
  const reply = await server.request('POST', '/retail/tools/list_all_product_types');
  t.equal(reply.status, 200);
  t.type(reply.body, 'string');
});

t.test('errors raised before a route runs are problem JSON too', async (t) => {
  const server = await startServer(t);
  const post = (path: string, headers: string, body = '{}') =>
    raw(server.origin, `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${headers}Connection: close\r\n\r\n${body}`);
  const cases: { name: string; answer: Promise<{ status: number; type: string; body: any }>; status: number; code: string }[] = [
    { name: 'a bad Content-Length', answer: post('/retail/tools/calculate', 'Content-Length: ten\r\n'), status: 400, code: 'invalid_content_length' },
    {
      name: 'a broken chunked body',
      answer: post('/retail/tools/calculate', 'Transfer-Encoding: chunked\r\n', 'zz\r\n{}\r\n0\r\n\r\n'),
      status: 400,
      code: 'malformed_request',
    },
    { name: 'an over-long URL', answer: post(`/retail/tools/${'x'.repeat(20_000)}`, 'Content-Length: 2\r\n'), status: 431, code: 'headers_too_large' },
    {
      name: 'over-long headers',
      answer: post('/retail/tools/calculate', `X-Padding: ${'p'.repeat(20_000)}\r\nContent-Length: 2\r\n`),
      status: 431,
      code: 'headers_too_large',
    },
    { name: 'malformed URL encoding', answer: post('/retail/tools/%E0%A4%A', 'Content-Length: 2\r\n'), status: 400, code: 'bad_url' },
    {
      name: 'a parameter over the router limit',
      answer: raw(server.origin, `GET /sessions/${'s'.repeat(120)} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`),
      status: 414,
      code: 'url_too_long',
    },
    { name: 'not HTTP at all', answer: raw(server.origin, 'HELLO\r\n\r\n'), status: 400, code: 'malformed_request' },
  ];
  for (const c of cases) {
    const reply = await c.answer;
    t.equal(reply.status, c.status, `${c.name}: status`);
    t.match(reply.type, /^application\/problem\+json/, `${c.name}: problem JSON`);
    t.match(reply.body, { status: c.status, code: c.code, title: String, detail: String, type: String }, `${c.name}: problem members`);
  }
  t.equal((await server.request('GET', '/health')).status, 200, 'the server is still up');
});
