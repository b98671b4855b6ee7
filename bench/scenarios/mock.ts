import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from '../load.js';
import type { Scenario } from '../scenario.js';
import { type Contender, measureFresh } from './compare.js';

/** The mock measured: the example's OpenAPI document and seed file, a seeded record to read, and a change it accepts. */
const MOCK_API = {
  openapi: 'examples/helpdesk/openapi.yaml',
  seedFile: 'examples/helpdesk/seed.yaml',
  record: '/tickets/ticket_1',
  change: { status: 'pending' },
};

const NAME = 'desk';

export const mock: Scenario = {
  name: 'mock',
  summary: `a read and a change of a mock's seeded record (${MOCK_API.openapi}) through /proxy/${NAME}, hazards off, against the read call get_order_details`,
  async run(context) {
    const dir = mkdtempSync(join(tmpdir(), 'wildtools-bench-mock-'));
    const config = join(dir, 'proxy.json');
    const file = (path: string) => new URL(`../../${path}`, import.meta.url).pathname;
    writeFileSync(config, JSON.stringify({ [NAME]: { openapi: file(MOCK_API.openapi), mock: { seed_file: file(MOCK_API.seedFile) } } }));
    const builtIn: Contender = {
      name: 'wildtools get_order_details',
      script: context.server,
      call: { path: '/retail/tools/get_order_details', body: { order_id: context.orderId } },
    };
    const path = `/proxy/${NAME}${MOCK_API.record}`;
    const mockRead: Contender = { name: `mock GET ${path}`, script: context.server, env: { PROXY_CONFIG: config }, call: { path, method: 'GET' } };
    // A change rather than a create: a session holds at most mock.max_records records a resource, and a load would reach it.
    const mockChange: Contender = { ...mockRead, name: `mock PATCH ${path}`, call: { path, method: 'PATCH', body: MOCK_API.change } };
    const rates = { builtIn: [] as number[], read: [] as number[], change: [] as number[] };
    const shares: number[] = [];
    try {
      for (let round = 1; round <= context.rounds; round++) {
        context.log(`  round ${round}`);
        const theirs = await measureFresh(builtIn, context);
        const read = await measureFresh(mockRead, context);
        const change = await measureFresh(mockChange, context);
        rates.builtIn.push(theirs.perSecond);
        rates.read.push(read.perSecond);
        rates.change.push(change.perSecond);
        shares.push(read.perSecond / theirs.perSecond);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return [
      { scenario: 'mock', metric: 'mock read / built-in read, throughput', value: median(shares), unit: '×', rounds: shares },
      { scenario: 'mock', metric: 'mock read (GET of a seeded record)', value: median(rates.read), unit: 'calls/s', rounds: rates.read },
      { scenario: 'mock', metric: 'mock change (PATCH of a seeded record)', value: median(rates.change), unit: 'calls/s', rounds: rates.change },
      { scenario: 'mock', metric: 'built-in read (get_order_details)', value: median(rates.builtIn), unit: 'calls/s', rounds: rates.builtIn },
    ];
  },
};
