import { fileURLToPath, pathToFileURL } from 'node:url';
import t from 'tap';
import { z } from 'zod';
import type { Domain } from '../../domains/domain.js';
import { NoInstance } from '../../domains/task.js';
import { field } from '../../lib/answer-fields.js';
import { domains } from '../../domains/index.js';
import type { BaseDatabase } from '../../server/core/data/base.js';
import { TaskBook, WORLD_ATTEMPTS, worldSeed } from '../../server/core/tasks/book.js';
import { CACHED_WORLDS, Worlds } from '../../server/core/tasks/worlds.js';
import { fixtureBases } from '../helpers/server.js';

// Each seed's world: seed 0 is the loaded database, another seed a world generated once and kept in a bounded
// cache; what was built on a world leaves with it.

const base = { domain: undefined as never, source: 'loaded', tables: new Map() } as BaseDatabase;

function fakeDomain(generated: number[], fail?: number): Domain {
  return {
    name: 'shop',
    world: (seed: number) => {
      generated.push(seed);
      if (seed === fail) throw new Error(`no world for ${seed}`);
      return { items: { [`item-${seed}`]: { seed } } };
    },
  } as unknown as Domain;
}

t.test('seed 0 is the loaded database; another seed is generated once, shared, and kept within the limit', (t) => {
  const generated: number[] = [];
  const evicted: string[] = [];
  const domain = fakeDomain(generated, 9);
  const worlds = new Worlds(new Map([['shop', base]]), 2, (name, seed) => evicted.push(`${name}#${seed}`));
  t.equal(worlds.get(domain, 0), base, 'seed 0: the loaded database');
  const one = worlds.get(domain, 1);
  t.equal(worlds.get(domain, 1), one, 'a second request shares the generated world');
  t.same([...one.tables.get('items')!.keys()], ['item-1'], 'the generated world, as tables');
  t.ok(Object.isFrozen(one.tables.get('items')!.get('item-1')), 'its records frozen like the loaded ones');
  worlds.get(domain, 2);
  worlds.get(domain, 1);
  t.same(generated, [1, 2], 'a cached world is not generated again');
  worlds.get(domain, 3);
  t.same(evicted, ['shop#2'], 'past the limit, the least recently used world goes, and is told');
  t.equal(worlds.size, 2);
  t.throws(() => worlds.get(domain, 9), /no world for 9/);
  t.throws(() => worlds.get(domain, 9), /no world for 9/, 'a failed generation is not kept');
  t.same(generated, [1, 2, 3, 9, 9]);
  t.same(evicted, ['shop#2'], 'nor does it push a world out');
  t.equal(worlds.get({ name: 'shop' } as Domain, 5), base, 'a domain without worlds has the loaded database for every seed');
  t.end();
});

t.test("an instance leaves the task book's cache with its world", async (t) => {
  const book = await new TaskBook(domains, await fixtureBases()).ready();
  const first = book.instance('weather/001', 1);
  t.equal(book.instance('weather/001', 1), first, 'cached while its world is');
  for (let seed = 2; seed <= CACHED_WORLDS + 1; seed++) book.instance('weather/001', seed);
  const rebuilt = book.instance('weather/001', 1);
  t.not(rebuilt, first, 'its world left the cache: the instance is built again');
  t.same(rebuilt.turns[0]!.answer!.expected, first.turns[0]!.answer!.expected, 'and is the same instance');
});

t.test("a seed's world without what the template needs gives way to the next world of the seed's line", async (t) => {
  const picked: number[] = [];
  const template = {
    id: 'shop/001',
    title: 'Read n',
    categories: ['single-step'],
    targets: [],
    pick({ db }: { db: { items: { values(): Iterable<{ n: number; even: boolean }> } } }) {
      const [item] = [...db.items.values()];
      picked.push(item!.n);
      if (!item!.even) throw new NoInstance('an odd world');
      return { n: item!.n };
    },
    request: (given: { n: number }) => `What is n? (${given.n})`,
    answer: z.strictObject({ n: field.count('n') }),
    solve: (_tools: unknown, given: { n: number }) => ({ n: given.n }),
  };
  const never = {
    ...template,
    id: 'shop/002',
    pick: () => {
      throw new NoInstance('nothing here');
    },
  };
  const fixtureFile = pathToFileURL('/nowhere/shop.json');
  const shop = {
    name: 'shop',
    tools: [],
    fixtureFile,
    world: (seed: number) => ({ items: { a: { n: seed, even: seed % 2 === 0 } } }),
    tasks: async () => [template, never],
  } as unknown as Domain;
  const loaded = { domain: shop, source: fileURLToPath(fixtureFile), tables: new Map([['items', new Map([['a', { n: 0, even: true }]])]]) } as BaseDatabase;
  const book = await new TaskBook([shop], new Map([['shop', loaded]])).ready();
  const instance = book.instance('shop/001', 3);
  t.equal(instance.seed, 3, 'the instance is still the seed’s');
  t.equal(picked[0], 3, "the seed's own world was tried first");
  const world = (instance.given as { n: number }).n;
  t.ok(world % 2 === 0 && picked.slice(1).every((n, i) => n === worldSeed(3, i + 1)), `then the next worlds of its line, in order (${picked.join(', ')})`);
  t.same((await new TaskBook([shop], new Map([['shop', loaded]])).ready()).instance('shop/001', 3).given, instance.given, 'the same on every server');
  t.throws(() => book.instance('shop/002', 5), /nothing here/, `a template no world fits is a bug: it fails after ${WORLD_ATTEMPTS} worlds`);
  t.throws(() => book.instance('shop/002', 0), /nothing here/, 'seed 0 is the loaded data: never another world');
});
