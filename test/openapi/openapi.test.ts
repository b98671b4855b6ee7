import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import t from 'tap';
import { domains } from '../../domains/index.js';
import { renderOpenapi } from '../../openapi/render.js';
import { startServer } from '../helpers/server.js';

const committed = (name: string) => readFileSync(new URL(`../../openapi/${name}`, import.meta.url), 'utf8');

t.test('the committed OpenAPI documents are fresh (npm run openapi regenerates them)', async (t) => {
  const files = await renderOpenapi();
  t.same([...files.keys()].sort(), ['openapi.json', ...domains.map((d) => `${d.name}.json`)].sort());
  for (const [name, text] of files) t.equal(committed(name), text, `openapi/${name} matches the generated document`);
});

t.test('every document passes an independent OpenAPI validator', async (t) => {
  for (const [name, text] of await renderOpenapi()) {
    const result = await new Validator().validate(JSON.parse(text));
    t.ok(result.valid, `${name} is valid OpenAPI ${JSON.parse(text).openapi}`, { errors: result.errors });
  }
});

t.test('one operation per tool, operationId = tool name, unique in each document', async (t) => {
  for (const domain of domains) {
    const document = JSON.parse(committed(`${domain.name}.json`));
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.values(item as Record<string, { operationId: string }>).map((op) => ({ path, id: op.operationId })),
    );
    const ids = operations.map((op) => op.id);
    t.equal(new Set(ids).size, ids.length, `${domain.name}: operationIds are unique`);
    for (const tool of domain.tools) {
      const operation = operations.find((op) => op.path === `/${domain.name}/tools/${tool.name}`);
      t.equal(operation?.id, tool.name, `${domain.name}: ${tool.name} has its operation`);
    }
  }
  const combined = JSON.parse(committed('openapi.json'));
  const ids = Object.values(combined.paths).flatMap((item) => Object.values(item as Record<string, { operationId: string }>).map((op) => op.operationId));
  t.equal(new Set(ids).size, ids.length, 'combined: operationIds are unique');
});

t.test('the server serves the committed documents', async (t) => {
  const server = await startServer(t);
  t.same((await server.request('GET', '/openapi.json')).body, JSON.parse(committed('openapi.json')));
  t.same((await server.request('GET', '/retail/openapi.json')).body, JSON.parse(committed('retail.json')));
  const docs = await server.request('GET', '/docs/');
  t.equal(docs.status, 200, 'Swagger UI is served at /docs');
  t.match(docs.text, /swagger/i);
});

t.test('Swagger UI offers every document, each valid as served', async (t) => {
  const server = await startServer(t);
  const initializer = (await server.request('GET', '/docs/static/swagger-initializer.js')).text;
  const urls = [...initializer.matchAll(/"url":"([^"]+)"/g)].map((match) => match[1]!);
  t.same(urls, ['/openapi.json', ...domains.map((d) => `/${d.name}/openapi.json`)], 'the combined document, then each domain');
  for (const url of [...urls, '/docs/json']) {
    const reply = await server.request('GET', url);
    t.equal(reply.status, 200, `${url} is served`);
    const result = await new Validator().validate(reply.body);
    t.ok(result.valid, `${url} is valid OpenAPI`, { errors: result.errors });
  }
});
