import type { ChildProcess } from 'node:child_process';
import { startChildServer, stopChild } from '../child-server.js';
import { type Call, measure, median, type Throughput } from '../load.js';
import type { BenchContext } from '../scenario.js';

/** A server to start for a measurement, and the call to load it with. */
export interface Contender {
  name: string;
  script: string;
  env?: Record<string, string>;
  call: Omit<Call, 'port'>;
  /** Whether failed answers are expected (hazards): otherwise one stops the bench. */
  failuresExpected?: boolean;
}

const PORT = 18181;

/** Starts a contender, loads it, stops it: each measurement on a fresh server. */
export async function measureFresh(contender: Contender, context: BenchContext): Promise<Throughput> {
  const child: ChildProcess = await startChildServer(contender.script, PORT, { LOG_LEVEL: 'warn', ...contender.env });
  try {
    const result = await measure({ ...contender.call, port: PORT }, context.load);
    if (!contender.failuresExpected && (result.failed > 0 || result.errors > 0))
      throw new Error(`${contender.name}: ${result.failed} failed answers, ${result.errors} connection errors`);
    context.log(`    ${contender.name.padEnd(52)} ${result.perSecond.toFixed(0).padStart(7)}/s  p50 ${result.p50} ms  p99 ${result.p99} ms`);
    return result;
  } finally {
    await stopChild(child);
  }
}

/** Alternating rounds of `ours` and the yardstick: each round's ratio of throughputs, and their median. */
export async function compare(
  ours: Contender,
  yardstick: Contender,
  context: BenchContext,
): Promise<{ ratio: number; rounds: number[]; ours: number; theirs: number }> {
  const rounds: number[] = [];
  const oursPerSecond: number[] = [];
  const theirsPerSecond: number[] = [];
  for (let round = 1; round <= context.rounds; round++) {
    context.log(`  round ${round}`);
    const theirs = await measureFresh(yardstick, context);
    const mine = await measureFresh(ours, context);
    rounds.push(mine.perSecond / theirs.perSecond);
    oursPerSecond.push(mine.perSecond);
    theirsPerSecond.push(theirs.perSecond);
  }
  return { ratio: median(rounds), rounds, ours: median(oursPerSecond), theirs: median(theirsPerSecond) };
}

export const bareRead = (context: BenchContext): Contender => ({
  name: 'bare fastify: parse, Map lookup, send',
  script: 'bench/baseline.ts',
  call: { path: '/orders', body: { order_id: context.orderId } },
});

export const ADDRESS = { address1: '1 Bench Way', address2: '', city: 'Reno', state: 'NV', country: 'USA', zip: '89501' };
