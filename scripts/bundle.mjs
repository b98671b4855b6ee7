// After compiling: the server as `npm start` and `wildtools serve` run it, one CommonJS file (dist/bundle/server.cjs,
// from cli/bundled.ts) compiled from V8's code cache (lib/code-cache.ts) by a small entry (dist/bundle/main.js, from
// server/bundle-main.ts; the bin, dist/cli/main.js, does the same for serve):
// Node 20 would otherwise resolve, read and compile several hundred files at every start (about a fifth of
// a cold start, measured), and has no code cache of its own. Files the server reads at run time are found
// from dist/package.json (lib/assets.ts), so the bundle sits in dist/bundle/.
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { writeCodeCache } from '../dist/lib/code-cache.js';

rmSync('dist/bundle', { recursive: true, force: true });

// Packages that load optional native code stay packages; so do those loaded only when needed: pino-pretty at
// a terminal, undici by the proxy.
const external = ['pino-pretty', 'undici', 'bufferutil', 'utf-8-validate'];

/**
 * `import()` of a package left out becomes a require() made when it is first needed: code compiled from a
 * code cache has no import() loader on Node 20 (the call throws ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING).
 */
const importsAsRequires = {
  name: 'imports-as-requires',
  setup(build) {
    build.onResolve({ filter: /.*/ }, ({ kind, path }) =>
      kind === 'dynamic-import' && (external.includes(path) || path.startsWith('node:')) ? { path, namespace: 'required' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'required' }, ({ path }) => ({ contents: `module.exports = require(${JSON.stringify(path)});`, loader: 'js' }));
  },
};

// Both files are CommonJS, whose code V8 caches; a CommonJS file has no import.meta: each bundled module's URL is
// the file's (lib/assets.ts walks up from it to dist/).
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'warning',
  outdir: 'dist/bundle',
  define: { 'import.meta.url': '__wildtoolsUrl' },
  banner: { js: "const __wildtoolsUrl = require('node:url').pathToFileURL(__filename).href;" },
};
await build({ ...common, entryPoints: { server: 'dist/cli/bundled.js' }, outExtension: { '.js': '.cjs' }, external, plugins: [importsAsRequires] });
await build({ ...common, entryPoints: { main: 'dist/server/bundle-main.js' } });
writeFileSync('dist/bundle/package.json', '{ "type": "commonjs" }\n');
writeCodeCache('dist/bundle/server.cjs');
// @fastify/swagger-ui serves its assets from `${__dirname}/../static`: dist/static for the bundle.
cpSync('node_modules/@fastify/swagger-ui/static', 'dist/static', { recursive: true });
console.log('bundled the server into dist/bundle/, with its code cache');
