import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuMicros, residentBytes, startChildServer, stopChild } from '../child-server.js';
import { measureCost, median } from '../load.js';
import type { BenchContext, Figure, Scenario } from '../scenario.js';
import { type Contender, measureFresh } from './compare.js';

/** The mock measured: its OpenAPI document, its seed file, a seeded record to read, and a create it accepts. */
const MOCK_API = {
  openapi: 'test/server/proxy/mock-documents/helpdesk.yaml',
  seedFile: 'test/server/proxy/mock-documents/seed.yaml',
  record: '/tickets/t_100',
  create: { path: '/tickets', body: { title: 'Bench ticket', priority: 'low' } },
};

const NAME = 'desk';
/** The creates' own server, which this scenario starts itself to read its memory before and after. */
const CREATE_PORT = 18186;
const MB = 1_048_576;

export const mock: Scenario = {
  name: 'mock',
  summary: `a read of a mock's seeded record (${MOCK_API.openapi}) through /proxy/${NAME}, hazards off, against the read call get_order_details`,
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
    const mockRead: Contender = {
      name: `mock GET /proxy/${NAME}${MOCK_API.record}`,
      script: context.server,
      env: { PROXY_CONFIG: config },
      call: { path: `/proxy/${NAME}${MOCK_API.record}`, method: 'GET' },
    };
    const builtInRates: number[] = [];
    const mockRates: number[] = [];
    const shares: number[] = [];
    const creates: Created[] = [];
    try {
      for (let round = 1; round <= context.rounds; round++) {
        context.log(`  round ${round}`);
        const theirs = await measureFresh(builtIn, context);
        const ours = await measureFresh(mockRead, context);
        builtInRates.push(theirs.perSecond);
        mockRates.push(ours.perSecond);
        shares.push(ours.perSecond / theirs.perSecond);
        creates.push(await measureCreates(config, context));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return figures(builtInRates, mockRates, shares, creates);
  },
};

interface Created {
  perSecond: number;
  /** Records the session held after the load: the seeded ones and every create, warm-up included. */
  records: number;
  /** Resident memory the load added to the fresh server: the records, and the journal up to JOURNAL_LIMIT. */
  addedBytes: number;
}

/** Creates in the default session on a fresh server, with its resident memory before and after. */
async function measureCreates(config: string, context: BenchContext): Promise<Created> {
  const child = await startChildServer(context.server, CREATE_PORT, { LOG_LEVEL: 'warn', PROXY_CONFIG: config });
  try {
    const before = residentBytes(child);
    const call = { port: CREATE_PORT, path: `/proxy/${NAME}${MOCK_API.create.path}`, method: 'POST' as const, body: MOCK_API.create.body };
    const result = await measureCost(call, context.load, () => [cpuMicros(child.pid!)]);
    if (result.failed > 0 || result.errors > 0) throw new Error(`mock create: ${result.failed} failed answers, ${result.errors} connection errors`);
    // Read before the list, whose answer holds every record.
    const addedBytes = residentBytes(child) - before;
    const list = (await (await fetch(`http://127.0.0.1:${CREATE_PORT}/proxy/${NAME}${MOCK_API.create.path}`)).json()) as unknown[] | Record<string, unknown>;
    // The list answer is the array itself, or an object with them in its array member.
    const records = ((Array.isArray(list) ? list : Object.values(list).find(Array.isArray)) ?? []).length;
    context.log(
      `    ${`mock POST /proxy/${NAME}${MOCK_API.create.path}`.padEnd(52)} ${result.perSecond.toFixed(0).padStart(7)}/s  p50 ${result.p50} ms  ` +
        `p99 ${result.p99} ms  ${result.perCall[0]!.toFixed(1)} µs CPU/call; ${records} records, RSS +${(addedBytes / MB).toFixed(0)} MB`,
    );
    return { perSecond: result.perSecond, records, addedBytes };
  } finally {
    await stopChild(child);
  }
}

function figures(builtIn: number[], mockRead: number[], shares: number[], creates: Created[]): Figure[] {
  const records = median(creates.map((created) => created.records));
  const added = creates.map((created) => created.addedBytes / MB);
  return [
    { scenario: 'mock', metric: 'mock read / built-in read, throughput', value: median(shares), unit: '×', rounds: shares },
    { scenario: 'mock', metric: 'mock read (GET of a seeded record)', value: median(mockRead), unit: 'calls/s', rounds: mockRead },
    { scenario: 'mock', metric: 'built-in read (get_order_details)', value: median(builtIn), unit: 'calls/s', rounds: builtIn },
    {
      scenario: 'mock',
      metric: 'mock create (POST)',
      value: median(creates.map((created) => created.perSecond)),
      unit: 'calls/s',
      rounds: creates.map((created) => created.perSecond),
      note: 'each POST adds a record to the one session, which keeps them all',
    },
    {
      scenario: 'mock',
      metric: 'RSS the creates added',
      value: median(added),
      unit: 'MB',
      rounds: added,
      note: `${records} records kept by the session, which has no bound on them (its journal has JOURNAL_LIMIT)`,
    },
  ];
}
