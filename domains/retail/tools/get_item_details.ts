import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { itemId } from '../fields.js';
import { Variant } from '../schema.js';
import { requireItem, type RetailDb } from '../db.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { RETAIL_ERRORS } from '../errors.js';

export default defineTool({
  name: 'get_item_details',
  description: 'One item (a variant of a product): its options, price and availability.',
  input: z.strictObject({ item_id: itemId }),
  output: Variant,
  errors: codesOf(RETAIL_ERRORS, 'item_not_found'),
  mutates: false,
  example: { item_id: '1672505665' },
  run: ({ item_id }, db: RetailDb) => requireItem(db, item_id),
});
