import { readFileSync, writeFileSync } from 'node:fs';

// A retail database `factor` times the default one (more customers and orders, the same catalog), for
// measuring what depends on the size of the data: copies of each user and order under new ids.
export function writeLargerRetail(path: string, factor: number): number {
  const db = JSON.parse(readFileSync(new URL('../fixtures/retail.json', import.meta.url), 'utf8')) as Record<string, Record<string, Record<string, unknown>>>;
  const users = db['users']!;
  const orders = db['orders']!;
  for (const [id, user] of Object.entries({ ...users })) {
    for (let copy = 1; copy < factor; copy++) users[`${id}_${copy}`] = { ...user, user_id: `${id}_${copy}` };
  }
  for (const [id, order] of Object.entries({ ...orders })) {
    for (let copy = 1; copy < factor; copy++) {
      const orderId = `${id}${String(copy).padStart(2, '0')}`;
      orders[orderId] = { ...order, order_id: orderId };
    }
  }
  const text = JSON.stringify(db);
  writeFileSync(path, text);
  return Buffer.byteLength(text);
}
