import { fileURLToPath } from 'node:url';
import { requireWithCodeCache } from '../lib/code-cache.js';
import type * as Launch from './launch.js';

// The entry of `npm start` once bundled (dist/bundle/main.js, made by scripts/bundle.mjs): the server, bundled
// beside it into one CommonJS file, run through the V8 code cache the build made by starting it once.
const server = requireWithCodeCache<typeof Launch>(fileURLToPath(new URL('./server.cjs', import.meta.url)));
await server.exports.launch(process.env);
