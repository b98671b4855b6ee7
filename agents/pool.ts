/**
 * `work` on every item with at most `concurrency` at once; the results come in the items' order whatever
 * the concurrency, so that a report is the same however fast the runs went.
 */
export async function mapInOrder<T, R>(items: readonly T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return results;
}
