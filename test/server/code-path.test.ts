import t from 'tap';
import { domains } from '../../domains/index.js';
import { startReport } from '../../server/code-path.js';
import type { BaseDatabase } from '../../server/core/data/base.js';

// The start line says which path the start took: the bundle and its code cache, or the modules; and for each
// database, whether its prepared copy stood for it.

const [first, second] = domains;
const bases = new Map<string, BaseDatabase>([
  [first!.name, { domain: first!, source: 'a.json', tables: new Map(), prepared: true }],
  [second!.name, { domain: second!, source: 'b.json', tables: new Map() }],
]);

t.test('the bundle, with what became of its code cache', async (t) => {
  const report = startReport({ from: 'bundle', codeCache: 'stale' }, bases);
  t.equal(report.message, `started from the bundle (code cache stale); databases: ${first!.name} prepared, ${second!.name} validated`);
  t.same(report.fields, { start: { from: 'bundle', codeCache: 'stale', databases: { [first!.name]: 'prepared', [second!.name]: 'validated' } } });
});

t.test('the modules', async (t) => {
  const report = startReport({ from: 'modules' }, bases);
  t.equal(report.message, `started from the modules; databases: ${first!.name} prepared, ${second!.name} validated`);
  t.same(report.fields, { start: { from: 'modules', databases: { [first!.name]: 'prepared', [second!.name]: 'validated' } } });
});
