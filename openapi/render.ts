import { domains } from '../domains/index.js';
import { buildApp } from '../server/app.js';
import { openapiDocuments } from '../server/core/openapi.js';

/**
 * The committed OpenAPI files, exactly as the server generates them: `openapi.json` for the
 * combined view and the server routes, `<domain>.json` for each domain. No data is needed.
 */
export async function renderOpenapi(): Promise<Map<string, string>> {
  const app = await buildApp({ domains, bases: new Map(), sessions: { ttlMs: 60_000, maxSessions: 1, defaultSeed: '0' } });
  await app.ready();
  try {
    const files = new Map<string, string>();
    for (const [name, document] of openapiDocuments(app)) {
      files.set(name === 'combined' ? 'openapi.json' : `${name}.json`, `${JSON.stringify(document, null, 2)}\n`);
    }
    return files;
  } finally {
    await app.close();
  }
}
