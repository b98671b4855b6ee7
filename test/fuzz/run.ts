// `npm run fuzz -- --requests 100000 [--hazards] [--url http://host:port] [--seed N] [--sessions 8]`: the
// long version of test/fuzz/fuzz.test.ts. Starts a server of its own (unless --url), sends fuzzed calls to
// every tool of every domain from several sessions at once, and prints a summary; exits 1 on any violation.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { domains } from '../../domains/index.js';
import { jsonSchemaOf } from '../../lib/json-schema.js';
import { loadBases } from '../../server/core/load.js';
import { spawnServer } from '../helpers/process.js';
import { casesOf } from './cases.js';
import { Checker } from './checker.js';
import { valuePools } from './pools.js';
import { fuzzSummary } from './summary.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '100000' },
    sessions: { type: 'string', default: '8' },
    seed: { type: 'string' },
    url: { type: 'string' },
    hazards: { type: 'boolean', default: false },
    'admin-token': { type: 'string' },
  },
});
const requests = Number(values.requests);
const sessions = Array.from({ length: Number(values.sessions) }, (_, i) => `fuzz-${i + 1}`);
const seed = Number(values.seed ?? Math.floor(Math.random() * 2 ** 31));

const RATE = 0.3;
const server = values.url
  ? undefined
  : await spawnServer({ LOG_LEVEL: 'info', ...(values.hazards ? { HAZARDS: 'all', HAZARD_RATE: String(RATE), HAZARD_LATENCY_MS: '0' } : {}) });
const origin = values.url?.replace(/\/+$/, '') ?? server!.origin;
/** The resident memory of the server this command started, in MB; a server at --url is not ours to read. */
const rss = () => (server?.child.pid ? Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024 : undefined);
/** The hazards a server at --url applies to sessions made without options, as it reports them. */
async function remoteHazards(url: string) {
  const answer = await fetch(`${url}/hazards?active=1`);
  if (!answer.ok) throw new Error(`GET ${url}/hazards?active=1 answered ${answer.status}`);
  return { url, activeCells: ((await answer.json()) as { matrix: unknown[] }).matrix.length };
}
const hazards = values.url ? await remoteHazards(origin) : { own: values.hazards, rate: RATE };

const pools = valuePools(await loadBases(domains));
const tools = domains.flatMap((domain) => domain.tools.map((tool) => ({ domain: domain.name, name: tool.name, input: jsonSchemaOf(tool.input, 'input') })));
const arbitrary = fc.oneof(...tools.map((tool) => casesOf(tool, pools)));
const checker = new Checker(origin, { hazards: values.hazards, ...(values['admin-token'] ? { adminToken: values['admin-token'] } : {}) });

const rssBefore = rss();
const started = performance.now();
let sent = 0;
let batch = 0;
// Each session runs its own stream of cases, one call at a time; the sessions run side by side.
await Promise.all(
  sessions.map(async (session, index) => {
    while (sent < requests) {
      const cases = fc.sample(arbitrary, { numRuns: 200, seed: seed + index * 1_000_003 + batch++ });
      for (const fuzz of cases) {
        if (sent >= requests) break;
        const number = ++sent;
        await checker.check(session, fuzz);
        if (number % 10_000 === 0) process.stdout.write(`  ${number} requests, ${checker.tally.violations.length} violations\n`);
      }
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
const broken = await checker.stillServes(sessions);
const health = (await (await fetch(`${origin}/health`)).json()) as { journal: { bytes: number; limit: number | null } };
const rssAfter = rss();
await checker.close();
server?.child.kill('SIGTERM');

const { tally } = checker;
const memory = rssBefore !== undefined && rssAfter !== undefined ? { rss: { before: rssBefore, after: rssAfter } } : {};
console.log(fuzzSummary({ tally, seconds, sessions: sessions.length, seed, hazards, ...memory, journal: health.journal, broken }));
for (const v of tally.violations.slice(0, 5))
  console.log(`\n  ${v.rule} (session ${v.session}, status ${v.status}):\n    ${JSON.stringify(v.case).slice(0, 300)}\n    ${v.body.slice(0, 300)}`);
process.exit(tally.violations.length === 0 && broken.length === 0 ? 0 : 1);
