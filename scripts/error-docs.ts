// `npm run error-docs [-- --check]`: writes docs/errors.md from the error catalogs, or with --check exits 1 when the
// committed page differs from what they give.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { renderErrorDocs } from './render-error-docs.js';

const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });
const file = new URL('../docs/errors.md', import.meta.url);
const text = renderErrorDocs();
if (values.check) {
  let committed = '';
  try {
    committed = readFileSync(file, 'utf8');
  } catch {
    // a missing page is stale
  }
  if (committed !== text) {
    console.error('docs/errors.md is stale: run npm run error-docs');
    process.exit(1);
  }
} else {
  writeFileSync(file, text);
  console.log(`docs/errors.md: ${Buffer.byteLength(text)} bytes`);
}
