import type { ChildProcess } from 'node:child_process';
import { cpuMicros, startChildServer, stopChild } from '../child-server.js';
import { type Call, measureCost, median, type Throughput } from '../load.js';
import type { BenchContext, Figure } from '../scenario.js';

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

/** A measurement, with the server's CPU time per call (which the load generator's own limits do not bound). */
export type Measured = Throughput & { cpuPerCall: number };

/** Starts a contender, loads it, stops it: each measurement on a fresh server. */
export async function measureFresh(contender: Contender, context: BenchContext): Promise<Measured> {
  const child: ChildProcess = await startChildServer(contender.script, PORT, { LOG_LEVEL: 'warn', ...contender.env });
  try {
    const measured = await measureCost({ ...contender.call, port: PORT }, context.load, () => [cpuMicros(child.pid!)]);
    const result = { ...measured, cpuPerCall: measured.perCall[0]! };
    if (!contender.failuresExpected && (result.failed > 0 || result.errors > 0))
      throw new Error(`${contender.name}: ${result.failed} failed answers, ${result.errors} connection errors`);
    context.log(
      `    ${contender.name.padEnd(52)} ${result.perSecond.toFixed(0).padStart(7)}/s  p50 ${result.p50} ms  p99 ${result.p99} ` +
        `ms  ${result.cpuPerCall.toFixed(1)} µs CPU/call`,
    );
    return result;
  } finally {
    await stopChild(child);
  }
}

export interface Comparison {
  /** Median of the rounds' throughput ratios (ours / the yardstick's). */
  ratio: number;
  rounds: number[];
  /** Median of the rounds' ratios of CPU per call (the yardstick's / ours): the server's cost, whoever bounds the throughput. */
  cpuRatio: number;
  ours: number;
  theirs: number;
}

/** Alternating rounds of the yardstick and `ours`: each round's ratio of throughputs, and their median. */
export async function compare(ours: Contender, yardstick: Contender, context: BenchContext): Promise<Comparison> {
  const rounds: number[] = [];
  const cpu: number[] = [];
  const oursPerSecond: number[] = [];
  const theirsPerSecond: number[] = [];
  for (let round = 1; round <= context.rounds; round++) {
    context.log(`  round ${round}`);
    const theirs = await measureFresh(yardstick, context);
    const mine = await measureFresh(ours, context);
    rounds.push(mine.perSecond / theirs.perSecond);
    cpu.push(theirs.cpuPerCall / mine.cpuPerCall);
    oursPerSecond.push(mine.perSecond);
    theirsPerSecond.push(theirs.perSecond);
  }
  return { ratio: median(rounds), rounds, cpuRatio: median(cpu), ours: median(oursPerSecond), theirs: median(theirsPerSecond) };
}

/** A comparison's figures: the throughput ratio against its target, and the ratio of CPU per call beside it. */
export function comparisonFigures(scenario: string, what: string, result: Comparison, target: number): Figure[] {
  return [
    {
      scenario,
      metric: `${what} / bare fastify, throughput`,
      value: result.ratio,
      unit: '×',
      target: { at: 'least', value: target },
      rounds: result.rounds,
      note: `${result.ours.toFixed(0)} vs ${result.theirs.toFixed(0)} calls/s`,
    },
    {
      scenario,
      metric: `${what}: bare fastify's CPU per call / ours`,
      value: result.cpuRatio,
      unit: '×',
      note: "the server's cost alone, whatever bounds the throughput",
    },
  ];
}

export const bareRead = (context: BenchContext): Contender => ({
  name: 'bare fastify: parse, Map lookup, send',
  script: 'bench/baseline.ts',
  call: { path: '/orders', body: { order_id: context.orderId } },
});

export const ADDRESS = { address1: '1 Bench Way', address2: '', city: 'Reno', state: 'NV', country: 'USA', zip: '89501' };
