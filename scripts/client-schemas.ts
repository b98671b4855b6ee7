// `npm run client-schemas [-- --check]`: writes client/schemas/*.ts from the tool declarations, or with
// --check exits 1 when a committed file differs from what they give.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { renderClientSchemas } from './render-client-schemas.js';

const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });

const readOrEmpty = (file: URL): string => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

let stale = 0;
for (const [name, text] of renderClientSchemas()) {
  const file = new URL(`../client/schemas/${name}`, import.meta.url);
  if (values.check) {
    if (readOrEmpty(file) !== text) {
      console.error(`client/schemas/${name} is stale: run npm run client-schemas`);
      stale++;
    }
  } else {
    writeFileSync(file, text);
    console.log(`client/schemas/${name}: ${Buffer.byteLength(text)} bytes`);
  }
}
if (stale > 0) process.exit(1);
