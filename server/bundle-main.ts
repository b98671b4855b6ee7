import { fileURLToPath } from 'node:url';
import { requireWithCodeCache } from '../lib/code-cache.js';
import type * as Launch from './launch.js';

// The entry of `npm start` once bundled (dist/bundle/main.js, made by scripts/bundle.mjs): the server, bundled
// beside it into one CommonJS file, compiled from the V8 code cache the build made of it. (The bundle also holds
// `wildtools serve`, cli/bundled.ts, which dist/cli/main.js runs.)
const server = requireWithCodeCache<typeof Launch>(fileURLToPath(new URL('./server.cjs', import.meta.url)));
void server.exports.launch(process.env, { from: 'bundle', codeCache: server.cache });
