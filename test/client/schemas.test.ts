import { readFileSync, readdirSync } from 'node:fs';
import t from 'tap';
import { toolNames } from '../../client/schemas/index.js';
import { domains } from '../../domains/index.js';
import { renderClientSchemas } from '../../scripts/render-client-schemas.js';

// The client's types come from committed schema files: they must be what the tool declarations give.

const dir = new URL('../../client/schemas/', import.meta.url);

t.test('the committed client schemas are fresh (npm run client-schemas, or npm run openapi, regenerates them)', async (t) => {
  const files = renderClientSchemas();
  t.same([...files.keys()].sort(), readdirSync(dir).sort(), 'one file per domain and the index, nothing else');
  for (const [name, text] of files) t.equal(readFileSync(new URL(name, dir), 'utf8'), text, `client/schemas/${name} matches the declarations`);
});

t.test('the client knows every tool of every domain by name', async (t) => {
  t.same(
    Object.keys(toolNames),
    domains.map((domain) => domain.name),
  );
  for (const domain of domains) {
    t.same(
      toolNames[domain.name as keyof typeof toolNames],
      domain.tools.map((tool) => tool.name),
      domain.name,
    );
  }
});
