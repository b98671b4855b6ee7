import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildServer, stopChild } from '../child-server.js';
import { measure, median } from '../load.js';
import type { Scenario } from '../scenario.js';
import { measureFresh } from './compare.js';

const CRM_PORT = 18185;

export const proxy: Scenario = {
  name: 'proxy',
  summary: "a read of the example CRM (examples/upstream-crm) called directly and through wildtools' proxy, hazards off",
  async run(context) {
    const dir = mkdtempSync(join(tmpdir(), 'wildtools-bench-proxy-'));
    const config = join(dir, 'proxy.json');
    const openapi = new URL('../../examples/upstream-crm/openapi.json', import.meta.url).pathname;
    writeFileSync(config, JSON.stringify({ crm: { upstream: `http://127.0.0.1:${CRM_PORT}`, openapi } }));
    // The upstream keeps running (on the load generator's core: it is part of both measurements).
    const crm = await startChildServer('examples/upstream-crm/main.ts', CRM_PORT, {}, { pin: false });
    const shares: number[] = [];
    const added: number[] = [];
    try {
      for (let round = 1; round <= context.rounds; round++) {
        context.log(`  round ${round}`);
        const direct = await measure({ port: CRM_PORT, path: '/contacts/c_001', method: 'GET' }, context.load);
        context.log(`    ${'CRM get_contact, direct'.padEnd(52)} ${direct.perSecond.toFixed(0).padStart(7)}/s`);
        const through = await measureFresh(
          {
            name: 'CRM get_contact through /proxy/crm',
            script: context.server,
            env: { PROXY_CONFIG: config },
            call: { path: '/proxy/crm/contacts/c_001', method: 'GET' },
          },
          context,
        );
        shares.push(through.perSecond / direct.perSecond);
        added.push((1 / through.perSecond - 1 / direct.perSecond) * 1e6);
      }
    } finally {
      await stopChild(crm);
      rmSync(dir, { recursive: true, force: true });
    }
    return [
      { scenario: 'proxy', metric: 'proxied / direct', value: median(shares), unit: '×', rounds: shares },
      {
        scenario: 'proxy',
        metric: 'time the proxy adds to a call',
        value: median(added),
        unit: 'µs',
        rounds: added,
        note: '1/throughput through the proxy minus direct',
      },
    ];
  },
};
