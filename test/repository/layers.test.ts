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

/** The layers a file's relative imports reach. */
function importedLayers(file: string): { layer: string; specifier: string }[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+'(\.[^']+)'/g)].map((match) => {
    const target = relative(root, resolve(join(root, dirname(file)), match[1]!));
    return { layer: target.split('/')[0]!, specifier: match[1]! };
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

t.test('the server names no domain; hazards name no domain or tool', async (t) => {
  for (const layer of ['server', 'hazards']) {
    for (const file of sources(layer)) {
      const text = readFileSync(join(root, file), 'utf8');
      t.notMatch(text, /['"`/](retail|airline|weather|smart-home)['"`/]/, `${file} names no domain`);
    }
  }
});
