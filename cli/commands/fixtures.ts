import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_FIXTURE_SEED, FIXTURE_GENERATORS, type FixtureDomain, renderFixture } from '../../fixtures/render.js';
import { type Command, UsageError } from '../command.js';

const DOMAINS = Object.keys(FIXTURE_GENERATORS) as FixtureDomain[];

export const fixtures: Command = {
  name: 'fixtures',
  summary: 'Write the default databases (<domain>.json), as the seeded generators make them; serve one with FIXTURE_<DOMAIN>.',
  options: [
    { name: 'out', value: 'DIR', description: 'the folder to write into (default: the current folder; made when missing)' },
    { name: 'seed', value: 'SEED', description: `the generators' seed (default ${DEFAULT_FIXTURE_SEED}, the embedded databases)` },
    { name: 'domain', value: 'NAME', multiple: true, description: `only this domain (${DOMAINS.join(', ')}); may be repeated` },
  ],
  async run(values, _positionals, io) {
    const chosen = (values['domain'] as string[] | undefined) ?? DOMAINS;
    const unknown = chosen.find((name) => !DOMAINS.includes(name as FixtureDomain));
    if (unknown) throw new UsageError(`--domain ${unknown}: the domains are ${DOMAINS.join(', ')}`);
    const seedText = (values['seed'] as string | undefined) ?? String(DEFAULT_FIXTURE_SEED);
    const seed = /^\d+$/.test(seedText) ? Number(seedText) : seedText;
    const out = (values['out'] as string | undefined) ?? '.';
    mkdirSync(out, { recursive: true });
    for (const domain of chosen as FixtureDomain[]) {
      const file = join(out, `${domain}.json`);
      const text = renderFixture(domain, seed);
      writeFileSync(file, text);
      io.out(`${file}: ${(Buffer.byteLength(text) / 1_048_576).toFixed(2)} MB (seed ${seedText})\n`);
    }
    return 0;
  },
};
