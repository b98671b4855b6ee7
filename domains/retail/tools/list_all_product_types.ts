import { z } from 'zod';
import { defineTool } from '../../tool.js';
import type { RetailDb } from '../db.js';

export default defineTool({
  name: 'list_all_product_types',
  description:
    'Every product type the store sells, as a JSON object mapping product name to product id, sorted by name. ' +
    'Each product has several items (variants) with their own ids.',
  input: z.strictObject({}),
  output: z.string().describe('JSON object {product name: product id}, keys sorted.'),
  errors: [],
  mutates: false,
  example: {},
  run(_args, db: RetailDb) {
    const byName = new Map<string, string>();
    for (const product of db.products.values()) byName.set(product.name, product.product_id);
    const sorted = [...byName].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return pythonJsonDumps(Object.fromEntries(sorted));
  },
});

/** The text Python's json.dumps prints for a flat string map (", " and ": " separators, ASCII escapes). */
function pythonJsonDumps(map: Record<string, string>): string {
  const quote = (s: string) => JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `{${Object.entries(map)
    .map(([k, v]) => `${quote(k)}: ${quote(v)}`)
    .join(', ')}}`;
}
