// After compiling: the server as `npm start` runs it, one module (plus the chunks loaded on first use: MCP,
// the proxy's clients) instead of several hundred files, which Node 20 would resolve, read and compile one by
// one at every start (about a fifth of a cold start, measured). Files the server reads at run time are found
// from dist/package.json (lib/assets.ts), so the bundle sits in dist/bundle/.
import { cpSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

rmSync('dist/bundle', { recursive: true, force: true });

await build({
  entryPoints: { main: 'dist/server/main.js' },
  outdir: 'dist/bundle',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  // Packages that load optional native code stay packages; so do those loaded only when needed: pino-pretty at
  // a terminal, undici by the proxy (whose named exports Node finds in its CommonJS, and a bundle would not).
  external: ['pino-pretty', 'undici', 'bufferutil', 'utf-8-validate'],
  // Bundled CommonJS code calls require() and reads files from __dirname (swagger-ui's assets, copied below);
  // an ES module has neither of its own.
  banner: {
    js: [
      "import { createRequire as __wildtoolsRequire } from 'node:module';",
      "import { fileURLToPath as __wildtoolsPath } from 'node:url';",
      'const require = __wildtoolsRequire(import.meta.url);',
      "const __dirname = __wildtoolsPath(new URL('.', import.meta.url));",
    ].join(' '),
  },
});
// @fastify/swagger-ui serves its assets from `${__dirname}/../static`: dist/static for the bundle.
cpSync('node_modules/@fastify/swagger-ui/static', 'dist/static', { recursive: true });
console.log('bundled the server into dist/bundle/');
