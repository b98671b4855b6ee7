#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { requireWithCodeCache } from '../lib/code-cache.js';
import type * as Bundled from './bundled.js';
import type { Io } from './command.js';

// The `wildtools` command. `serve` runs the bundle the build made (dist/bundle/server.cjs, from its code cache),
// as `npm start` does, without loading the CLI's modules; from the sources, or without a bundle, it runs as every
// other command does, module by module.
const argv = process.argv.slice(2);
const io: Io = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text), env: process.env };
const bundle = fileURLToPath(new URL('../bundle/server.cjs', import.meta.url));

if (argv[0] === 'serve' && existsSync(bundle)) {
  const server = requireWithCodeCache<typeof Bundled>(bundle);
  process.exitCode = await server.exports.serve(argv.slice(1), io, { from: 'bundle', codeCache: server.cache });
} else {
  const { runCli } = await import('./run.js');
  process.exitCode = await runCli(argv, io);
}
