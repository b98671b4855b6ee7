// After compiling: the server as `npm start` runs it, one CommonJS file (dist/bundle/server.cjs) run by a small
// entry (dist/bundle/main.js, from server/bundle-main.ts) through V8's code cache (scripts/code-cache.mjs):
// Node 20 would otherwise resolve, read and compile several hundred files at every start (about a fifth of
// a cold start, measured), and has no code cache of its own for ES modules. Files the server reads at run
// time are found from dist/package.json (lib/assets.ts), so the bundle sits in dist/bundle/.
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

rmSync('dist/bundle', { recursive: true, force: true });

// Packages that load optional native code stay packages; so do those loaded only when needed: pino-pretty at
// a terminal, undici by the proxy.
const external = ['pino-pretty', 'undici', 'bufferutil', 'utf-8-validate'];

/**
 * `import()` of a package left out becomes a require() made when it is first needed: a script run from a
 * code cache loses its import() loader on Node 20 (the call throws ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING).
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

const common = { bundle: true, platform: 'node', target: 'node20', logLevel: 'warning', outdir: 'dist/bundle' };
await build({
  ...common,
  entryPoints: { server: 'dist/server/launch.js' },
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  external,
  plugins: [importsAsRequires],
  // A CommonJS file has no import.meta: each bundled module's URL is the bundle's (lib/assets.ts walks up to dist/).
  define: { 'import.meta.url': '__wildtoolsUrl' },
  banner: { js: "const __wildtoolsUrl = require('node:url').pathToFileURL(__filename).href;" },
});
await build({ ...common, entryPoints: { main: 'dist/server/bundle-main.js' }, format: 'esm' });
// @fastify/swagger-ui serves its assets from `${__dirname}/../static`: dist/static for the bundle.
cpSync('node_modules/@fastify/swagger-ui/static', 'dist/static', { recursive: true });
const cache = spawnSync(process.execPath, ['scripts/code-cache.mjs'], { stdio: 'inherit' });
if (cache.status !== 0) process.exit(cache.status ?? 1);
console.log('bundled the server into dist/bundle/');
