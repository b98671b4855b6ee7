import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { RETAIL_ERRORS } from '../errors.js';
import { foldForMatch } from '../../../lib/text.js';
import { pageSize } from '../fields.js';
import type { Variant } from '../schema.js';
import type { RetailDb } from '../db.js';
import { productCategory } from '../derive.js';
import { codesOf } from '../../../lib/error-catalog.js';

const SORTS = ['relevance', 'price_asc', 'price_desc', 'name'] as const;

const Result = z.object({
  product_id: z.string(),
  name: z.string(),
  category: z.string(),
  price_min: z.number().describe('Lowest price among the matching items.'),
  price_max: z.number().describe('Highest price among the matching items.'),
  matching_items: z.number().int().describe('Items (variants) of the product that pass every filter.'),
  available_items: z.number().int().describe('Items of the product that are available, whatever the filters.'),
  sponsored: z.boolean().describe('True for a paid placement (an advertisement), false for a match of the search.'),
});
type Result = z.infer<typeof Result>;

interface Hit extends Result {
  /** Folded name, for sorting. */
  key: string;
  /** Query words found in the product name. */
  nameHits: number;
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const byName = (a: Hit, b: Hit): number => byText(a.key, b.key) || byText(a.name, b.name) || byText(a.product_id, b.product_id);
const ORDERINGS: Record<(typeof SORTS)[number], (a: Hit, b: Hit) => number> = {
  relevance: (a, b) => b.nameHits - a.nameHits || byName(a, b),
  price_asc: (a, b) => a.price_min - b.price_min || byText(a.product_id, b.product_id),
  price_desc: (a, b) => b.price_min - a.price_min || byText(a.product_id, b.product_id),
  name: byName,
};

export default defineTool({
  name: 'search_product',
  description:
    'Search the catalog for products. Words of the query match, regardless of case, the product name, its ' +
    "category or an item's option values (e.g. 'black leather jacket'); every word must match, and an item counts " +
    'only when the words match it. Filters narrow the items further (category, price range, availability); a ' +
    'product is listed when at least one of its items passes them all. Returns one page of products with the ' +
    'price range of their matching items; use get_product_details for the items themselves.',
  input: z.strictObject({
    query: z.string().max(200).optional().describe("Words to look for, e.g. 'wireless headphones blue'. Omit to list everything."),
    category: z.string().optional().describe("Only products of this category (any case), e.g. 'electronics'."),
    min_price: z.number().min(0).optional().describe('Only items costing at least this much.'),
    max_price: z.number().min(0).optional().describe('Only items costing at most this much.'),
    available_only: z.boolean().default(true).describe('Count only items that can be ordered now (default true).'),
    sort: z
      .enum(SORTS)
      .default('relevance')
      .describe(
        'relevance (default): products with more query words in their name first, then by name; ' +
          'price_asc / price_desc: by lowest matching price; name: alphabetical.',
      ),
    limit: pageSize.default(10).describe('Products per page, 1 to 50 (default 10).'),
    offset: z.number().int().min(0).default(0).describe('Number of products to skip, for the next pages (default 0).'),
  }),
  output: z.object({
    results: z.array(Result),
    total: z.number().int().describe('Number of matching products, over all pages.'),
    offset: z.number().int(),
    limit: z.number().int(),
    has_more: z.boolean().describe('Whether more products follow this page.'),
    next_offset: z.number().int().nullable().describe('The offset of the next page; null when has_more is false.'),
  }),
  errors: codesOf(RETAIL_ERRORS, 'invalid_price_range'),
  mutates: false,
  example: { query: 'USB-C Hub' },
  run({ query, category, min_price, max_price, available_only, sort, limit, offset }, db: RetailDb) {
    if (min_price !== undefined && max_price !== undefined && min_price > max_price) {
      throw toolError(RETAIL_ERRORS.invalid_price_range, 'min_price must not be greater than max_price');
    }
    const words = foldForMatch(query ?? '')
      .split(/\s+/)
      .filter((word) => word !== '');
    const wantedCategory = category === undefined ? undefined : foldForMatch(category);

    // An item passes when every word is in the product's name or category, or in one of the item's option values.
    const passes = (variant: Variant, productFields: readonly string[]): boolean => {
      if (available_only && !variant.available) return false;
      if (min_price !== undefined && variant.price < min_price) return false;
      if (max_price !== undefined && variant.price > max_price) return false;
      const fields = [...productFields, ...Object.values(variant.options).map(foldForMatch)];
      return words.every((word) => fields.some((field) => field.includes(word)));
    };

    const hits: Hit[] = [];
    for (const product of db.products.values()) {
      const itsCategory = productCategory(product);
      if (wantedCategory !== undefined && foldForMatch(itsCategory) !== wantedCategory) continue;
      const key = foldForMatch(product.name);
      const fields = [key, foldForMatch(itsCategory)];
      const variants = Object.values(product.variants);
      const matching = variants.filter((variant) => passes(variant, fields));
      if (matching.length === 0) continue;
      const prices = matching.map((variant) => variant.price);
      hits.push({
        product_id: product.product_id,
        name: product.name,
        category: itsCategory,
        price_min: Math.min(...prices),
        price_max: Math.max(...prices),
        matching_items: matching.length,
        available_items: variants.filter((variant) => variant.available).length,
        sponsored: false,
        key,
        nameHits: words.filter((word) => key.includes(word)).length,
      });
    }
    hits.sort(ORDERINGS[sort]);
    const results = hits.slice(offset, offset + limit).map(({ key: _key, nameHits: _hits, ...result }) => result);
    const has_more = offset + results.length < hits.length;
    return { results, total: hits.length, offset, limit, has_more, next_offset: has_more ? offset + results.length : null };
  },
});
