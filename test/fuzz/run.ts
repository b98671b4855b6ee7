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

const server = values.url
  ? undefined
  : await spawnServer({ LOG_LEVEL: 'info', ...(values.hazards ? { HAZARDS: 'all', HAZARD_RATE: '0.3', HAZARD_LATENCY_MS: '0' } : {}) });
const origin = values.url ?? server!.origin;
const rss = () => (server?.child.pid ? Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024 : NaN);

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
const rules = new Map<string, number>();
for (const v of tally.violations) rules.set(v.rule, (rules.get(v.rule) ?? 0) + 1);
console.log(
  `
fuzz: ${tally.requests} tool calls in ${seconds.toFixed(0)} s from ${sessions.length} sessions (seed ${seed}${values.hazards ? ', every hazard on at 0.3' : ''})
  statuses        ${[...tally.byStatus]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join('  ')}
  5xx             ${tally.injected5xx} injected, ${tally.unexplained5xx} without a hazard
  data changed    ${tally.changedOn4xx} times on a refused call
  violations      ${tally.violations.length}${[...rules].map(([rule, n]) => `\n    ${n} × ${rule}`).join('')}
  afterwards      ${broken.length === 0 ? 'journal, state, diff, sessions and health all answer 200' : broken.join('; ')}
  server RSS      ${rssBefore.toFixed(0)} MB before, ${rssAfter.toFixed(0)} MB after; journals ${(health.journal.bytes / 2 ** 20).toFixed(1)} MB ` +
    `of ${health.journal.limit === null ? 'unbounded' : `${(health.journal.limit / 2 ** 20).toFixed(0)} MB`}`,
);
for (const v of tally.violations.slice(0, 5))
  console.log(`\n  ${v.rule} (session ${v.session}, status ${v.status}):\n    ${JSON.stringify(v.case).slice(0, 300)}\n    ${v.body.slice(0, 300)}`);
process.exit(tally.violations.length === 0 && broken.length === 0 ? 0 : 1);
