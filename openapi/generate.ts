// `npm run openapi` writes the OpenAPI documents into openapi/ (and the client types the tests use);
// `tsx openapi/generate.ts --check` exits 1 when a committed document differs from what the server generates.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { renderOpenapi } from './render.js';

const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });

let stale = 0;
for (const [name, text] of await renderOpenapi()) {
  const file = new URL(`./${name}`, import.meta.url);
  if (values.check) {
    let committed = '';
    try {
      committed = readFileSync(file, 'utf8');
    } catch {
      // a missing file is stale
    }
    if (committed !== text) {
      console.error(`openapi/${name} is stale: run npm run openapi`);
      stale++;
    }
  } else {
    writeFileSync(file, text);
    console.log(`openapi/${name}: ${Buffer.byteLength(text)} bytes`);
  }
}
if (stale > 0) process.exit(1);
