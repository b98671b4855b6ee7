import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

// The layers point one way: cli → server → scoring → domains → hazards → lib. A file may import its own layer and the
// layers below it, never one above; so there is no import loop between layers. Type-only imports count.
// Domains also read their generated data's catalogs (fixtures/). The client is a standalone HTTP client:
// it imports nothing of the server's (its generated schemas are data); the cli may use it. The scripted
// agents are clients too: they see the server only over HTTP.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const LAYERS = ['cli', 'server', 'scoring', 'domains', 'hazards', 'lib', 'client', 'agents'] as const;
const MAY_IMPORT: Record<(typeof LAYERS)[number], readonly string[]> = {
  cli: ['cli', 'client', 'server', 'domains', 'hazards', 'lib', 'fixtures'],
  server: ['server', 'scoring', 'domains', 'hazards', 'lib'],
  scoring: ['scoring', 'lib'],
  domains: ['domains', 'hazards', 'lib', 'fixtures'],
  hazards: ['hazards', 'lib'],
  lib: ['lib'],
  client: ['client'],
  agents: ['agents', 'client', 'lib'],
};

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

/** The layers a file's relative imports reach: static, side-effect only, and dynamic. */
function importedLayers(file: string): { layer: string; specifier: string; target: string }[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/(?:(?:^|\n)\s*(?:import|export)(?:[^'"]*?from)?\s+|\bimport\(\s*)'(\.[^']+)'/g)].map((match) => {
    const target = relative(root, resolve(join(root, dirname(file)), match[1]!));
    return { layer: target.split('/')[0]!, specifier: match[1]!, target };
  });
}

for (const layer of LAYERS) {
  t.test(`${layer}/ imports only its own layer and the ones below`, async (t) => {
    let checked = 0;
    for (const file of sources(layer)) {
      for (const { layer: target, specifier } of importedLayers(file)) {
        checked += 1;
        t.ok(MAY_IMPORT[layer].includes(target), `${file} → ${specifier}`);
      }
    }
    if (layer !== 'lib') t.ok(checked > 3, `imports were found and checked (${checked})`);
  });
}

// Inside the server the same holds one level down: core/ is shared by the transports and imports none of them; a
// transport (http, mcp, openenv, proxy) imports core/ and never another transport, so each can be served, tested
// or left out alone. The files at server/'s top (the app, launch and entry points) are the composition root that
// wires core and transports: they may import all of them, and nothing in a folder imports them.
const SERVER_ROOT = 'root';
const SERVER_PARTS = ['core', 'http', 'mcp', 'openenv', 'proxy', SERVER_ROOT] as const;
const SERVER_MAY_IMPORT: Record<(typeof SERVER_PARTS)[number], readonly string[]> = {
  core: ['core'],
  http: ['http', 'core'],
  mcp: ['mcp', 'core'],
  openenv: ['openenv', 'core'],
  proxy: ['proxy', 'core'],
  root: SERVER_PARTS,
};

/** The part of server/ a path inside it belongs to: its first folder, or the root for a file at the top. */
function serverPart(path: string): string {
  const parts = path.split('/');
  return parts.length > 2 ? parts[1]! : SERVER_ROOT;
}

t.test('server/: core imports no transport; a transport imports core, never another transport', async (t) => {
  let checked = 0;
  for (const file of sources('server')) {
    const from = serverPart(file);
    t.ok((SERVER_PARTS as readonly string[]).includes(from), `${file} is in core/, a transport's folder, or the root`);
    for (const { target } of importedLayers(file)) {
      if (!target.startsWith('server/')) continue;
      checked += 1;
      const to = serverPart(target);
      const allowed = SERVER_MAY_IMPORT[from as (typeof SERVER_PARTS)[number]] ?? [];
      t.ok(allowed.includes(to), `${file} (${from}) → ${target} (${to})`);
    }
  }
  t.ok(checked > 300, `imports inside server/ were found and checked (${checked})`);
});

t.test('the server names no domain; hazards name no domain or tool', async (t) => {
  for (const layer of ['server', 'hazards']) {
    for (const file of sources(layer)) {
      const text = readFileSync(join(root, file), 'utf8');
      t.notMatch(text, /['"`/](retail|airline|weather|smart-home)['"`/]/, `${file} names no domain`);
    }
  }
});
