import t, { type Test } from 'tap';
import { startServer } from '../../../helpers/server.js';
import { retailFixture } from '../../../helpers/retail.js';
import type { Product } from '../../../../domains/retail/schema.js';

const products = Object.values(retailFixture().products);
const fold = (s: string) => s.toLowerCase();
/** Whether every word is in the product's name or category, or in one option value of the variant. */
const wordsMatch = (words: string[], product: Product, options: Record<string, string>) =>
  words.every((w) => [product.name, product.category ?? '', ...Object.values(options)].some((f) => fold(f).includes(w)));
const isSorted = <T>(items: T[], cmp: (a: T, b: T) => number) => items.every((x, i) => i === 0 || cmp(items[i - 1]!, x) <= 0);
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

t.test('search_product', async (t) => {
  const server = await startServer(t);
  const search = async (t: Test, args: Record<string, unknown>) => {
    const reply = await server.call('retail', 'search_product', args);
    t.equal(reply.status, 200, JSON.stringify(args));
    return reply.body;
  };

  // A product whose name no other product matches, with available and unavailable variants.
  const target = products.find((p) => {
    const words = fold(p.name).split(/\s+/);
    const variants = Object.values(p.variants);
    return variants.some((v) => !v.available) && products.every((q) => q === p || Object.values(q.variants).every((v) => !wordsMatch(words, q, v.options)));
  })!;
  const variants = Object.values(target.variants);
  const available = variants.filter((v) => v.available);
  const prices = (vs: typeof variants) => ({ price_min: Math.min(...vs.map((v) => v.price)), price_max: Math.max(...vs.map((v) => v.price)) });

  t.test('the exact result for a product name, counting only available items by default', async (t) => {
    const body = await search(t, { query: target.name.toUpperCase() });
    t.same(body, {
      results: [
        {
          product_id: target.product_id,
          name: target.name,
          category: target.category,
          ...prices(available),
          matching_items: available.length,
          available_items: available.length,
          sponsored: false,
        },
      ],
      total: 1,
      offset: 0,
      limit: 10,
      has_more: false,
      next_offset: null,
    });
    const all = await search(t, { query: target.name, available_only: false });
    t.match(all.results[0], { ...prices(variants), matching_items: variants.length, available_items: available.length });
  });

  t.test('option values narrow the matching items', async (t) => {
    const [key, value] = Object.entries(available[0]!.options)[0]!;
    const body = await search(t, { query: `${target.name} ${value}` });
    const expected = available.filter((v) => wordsMatch([...fold(target.name).split(/\s+/), fold(value)], target, v.options));
    t.ok(expected.length < available.length, `'${value}' (${key}) narrows the items`);
    t.equal(body.total, 1);
    t.match(body.results[0], { product_id: target.product_id, matching_items: expected.length, ...prices(expected) });
  });

  t.test('category and price filters; a product is listed when one item passes them all', async (t) => {
    const category = target.category!;
    const body = await search(t, { category: category.toUpperCase(), limit: 50 });
    const inCategory = products.filter((p) => p.category === category && Object.values(p.variants).some((v) => v.available));
    t.equal(body.total, inCategory.length);
    t.ok(body.results.every((r: { category: string }) => r.category === category));

    const sorted = available.map((v) => v.price).sort((a, b) => a - b);
    const [min_price, max_price] = [sorted[0]!, sorted[Math.floor(sorted.length / 2)]!];
    const ranged = await search(t, { query: target.name, min_price, max_price });
    const inRange = available.filter((v) => v.price >= min_price && v.price <= max_price);
    t.match(ranged.results[0], { matching_items: inRange.length, ...prices(inRange) });

    const everything = await search(t, { min_price: 100, max_price: 200, limit: 50, available_only: false });
    const expected = products.filter((p) => Object.values(p.variants).some((v) => v.price >= 100 && v.price <= 200));
    t.equal(everything.total, expected.length);
    t.ok(everything.results.every((r: { price_min: number; price_max: number }) => r.price_min >= 100 && r.price_max <= 200));

    t.same(await search(t, { category: 'no such category' }), { results: [], total: 0, offset: 0, limit: 10, has_more: false, next_offset: null });
    t.equal((await search(t, { query: `${target.name} zzzzqx` })).total, 0, 'every word must match');
  });

  t.test('sorts are deterministic, ties broken by product id', async (t) => {
    const args = { available_only: false, limit: 50 };
    type R = { product_id: string; name: string; price_min: number };
    const byName = (a: R, b: R) => byText(fold(a.name), fold(b.name)) || byText(a.product_id, b.product_id);
    const name = (await search(t, { ...args, sort: 'name' })).results as R[];
    t.equal(name.length, products.length);
    t.ok(isSorted(name, byName), 'name');
    t.same((await search(t, args)).results, name, 'relevance without a query is by name');
    const asc = (await search(t, { ...args, sort: 'price_asc' })).results as R[];
    t.ok(
      isSorted(asc, (a, b) => a.price_min - b.price_min || byText(a.product_id, b.product_id)),
      'price_asc',
    );
    const desc = (await search(t, { ...args, sort: 'price_desc' })).results as R[];
    t.ok(
      isSorted(desc, (a, b) => b.price_min - a.price_min || byText(a.product_id, b.product_id)),
      'price_desc',
    );
    t.same(await search(t, { ...args, sort: 'price_asc' }), await search(t, { ...args, sort: 'price_asc' }), 'same call, same answer');
  });

  t.test('relevance puts products with the words in their name first', async (t) => {
    // A word of some product names that other products match only through an option value or category.
    const word = products
      .flatMap((p) => fold(p.name).split(/\s+/))
      .find((w) => w.length > 3 && products.some((p) => !fold(p.name).includes(w) && wordsMatch([w], p, Object.values(p.variants)[0]!.options)))!;
    t.ok(word, `found a word: ${word}`);
    const results = (await search(t, { query: word, available_only: false, limit: 50 })).results as { name: string }[];
    const inName = results.map((r) => fold(r.name).includes(word));
    t.ok(inName.includes(true) && inName.includes(false));
    t.equal(inName.indexOf(false), inName.lastIndexOf(true) + 1, 'name hits first');
  });

  t.test('pages', async (t) => {
    const all = await search(t, { sort: 'name', limit: 50 });
    const page = await search(t, { sort: 'name', limit: 3, offset: 4 });
    t.same(page, { results: all.results.slice(4, 7), total: all.total, offset: 4, limit: 3, has_more: true, next_offset: 7 });
    const last = await search(t, { sort: 'name', limit: 3, offset: all.total - 2 });
    t.same([last.results.length, last.has_more, last.next_offset], [2, false, null], 'the last page says there is no more');
    t.same((await search(t, { offset: 1000 })).results, []);
  });

  t.test('errors', async (t) => {
    const range = await server.call('retail', 'search_product', { min_price: 50, max_price: 10 });
    t.equal(range.status, 422);
    t.equal(range.body.detail, 'min_price must not be greater than max_price');
    for (const args of [{ query: 42 }, { limit: 0 }, { limit: 51 }, { offset: -1 }, { sort: 'popularity' }, { available_only: 'yes' }, { color: 'red' }]) {
      const reply = await server.call('retail', 'search_product', args);
      t.equal(reply.status, 400, JSON.stringify(args));
      t.match(reply.headers['content-type'], /application\/problem\+json/);
    }
    t.same((await server.request('GET', '/sessions/default/diff')).body.retail, [], 'read-only');
  });
});
