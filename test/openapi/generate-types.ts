// Part of `npm run openapi`: writes the client types of the committed documents into test/openapi/types/.
import { writeFileSync } from 'node:fs';
import { clientTypesFile, renderClientTypes } from './client-types.js';

for (const [name, text] of await renderClientTypes()) {
  writeFileSync(clientTypesFile(name), text);
  console.log(`test/openapi/types/${name}.ts: ${Buffer.byteLength(text)} bytes`);
}
