import { readFileSync } from 'node:fs';
import t from 'tap';
import { domains } from '../../domains/index.js';
import { SERVER_ERRORS } from '../../server/core/error-codes.js';
import { renderErrorDocs } from '../../scripts/render-error-docs.js';

// docs/errors.md is generated from the error catalogs: the committed page is what they give now.

t.test('docs/errors.md is fresh: npm run error-docs writes it', async (t) => {
  const committed = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  const rendered = renderErrorDocs();
  t.equal(committed, rendered, 'the committed page is what the catalogs give');
  for (const domain of domains) for (const code of Object.keys(domain.errors ?? {})) t.match(rendered, `| \`${code}\` |`, `${domain.name}/${code} listed`);
  for (const code of Object.keys(SERVER_ERRORS)) t.match(rendered, `| \`${code}\` |`, `server/${code} listed`);
});
