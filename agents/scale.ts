import { OpenEnvClient } from '../client/openenv.js';
import { refusalOf } from './adversaries.js';

// OpenEnv's scaling measurement, against wildtools: a batch of concurrent sessions, each its own WebSocket
// episode (connect, reset, `steps` tool calls with `wait` seconds between them as an agent thinks, the
// final answer, close). A session succeeds when every message is answered without an error. Reported as
// OpenEnv reports it: the largest batch at ≥ 95 % success, requests per second, latency percentiles.

export interface ScaleOptions {
  /** The environment's base URL (`http://host:port/openenv`). */
  baseUrl: string;
  /** Concurrent sessions in the batch. */
  sessions: number;
  /** Tool calls per session. */
  steps: number;
  /** Seconds between two messages of a session (the agent's think time; OpenEnv's `wait`). */
  wait: number;
  /** The task every session runs (its instance of `seed`, default 1: rollouts of one prompt), and the call each step makes. */
  task: string;
  seed?: number;
  call: { tool_name: string; arguments: Record<string, unknown> };
  /** Seconds a session may take before it counts as failed. */
  timeout: number;
  token?: string;
}

export interface BatchResult {
  sessions: number;
  wait: number;
  steps: number;
  succeeded: number;
  success_rate: number;
  /** Messages answered (reset, steps, answer) per second of the batch's wall time. */
  requests_per_s: number;
  seconds: number;
  /** Latency of one message's answer (ms): the steps' and answers'. */
  latency_ms: { p50: number; p95: number; p99: number; max: number };
  connect_ms: { p50: number; p99: number };
  /** The first few distinct failures, with how many sessions met each. */
  failures: { why: string; sessions: number }[];
}

/** Runs one batch of concurrent sessions and measures it. */
export async function runBatch(options: ScaleOptions): Promise<BatchResult> {
  const latencies: number[] = [];
  const connects: number[] = [];
  const failures = new Map<string, number>();
  let requests = 0;
  let succeeded = 0;
  const started = performance.now();
  const session = async () => {
    let episode: OpenEnvClient | undefined;
    let handle: NodeJS.Timeout | undefined;
    const timer = new Promise<never>((_, reject) => {
      handle = setTimeout(() => reject(new Error(`no end within ${options.timeout} s`)), options.timeout * 1000);
    });
    const timed = async <T>(work: Promise<T>): Promise<T> => {
      const at = performance.now();
      const result = await Promise.race([work, timer]);
      latencies.push(performance.now() - at);
      requests++;
      return result;
    };
    try {
      const at = performance.now();
      episode = await Promise.race([OpenEnvClient.connect(options.baseUrl, options.token ? { token: options.token } : {}), timer]);
      connects.push(performance.now() - at);
      const reset = await timed(episode.reset({ task: options.task, seed: options.seed ?? 1, kinds: [] }));
      // The answer: what submit_answer's schema takes (its content does not matter to the measurement).
      const schema = reset.observation.tools?.find((tool) => tool.name === 'submit_answer')?.input_schema;
      const { message: _words, ...answer } = refusalOf((schema as Record<string, unknown> | undefined) ?? null) ?? {};
      for (let step = 0; step < options.steps; step++) {
        await pause(options.wait);
        const result = await timed(episode.step({ type: 'call_tool', ...options.call }));
        const status = result.observation.response?.status ?? 0;
        if (status !== 200) throw new Error(`a call answered ${status}`);
      }
      await pause(options.wait);
      const last = await timed(episode.step(schema ? { type: 'answer', answer } : { type: 'answer', text: 'done' }));
      if (!last.done) throw new Error('the answer did not end the episode');
      succeeded++;
    } catch (error) {
      const why = (error as Error).message.replace(/\d+/g, 'N');
      failures.set(why, (failures.get(why) ?? 0) + 1);
    } finally {
      clearTimeout(handle);
      await episode?.close().catch(() => {});
    }
  };
  await Promise.all(Array.from({ length: options.sessions }, () => session()));
  const seconds = (performance.now() - started) / 1000;
  return {
    sessions: options.sessions,
    wait: options.wait,
    steps: options.steps,
    succeeded,
    success_rate: succeeded / options.sessions,
    requests_per_s: requests / seconds,
    seconds,
    latency_ms: { p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), max: percentile(latencies, 100) },
    connect_ms: { p50: percentile(connects, 50), p99: percentile(connects, 99) },
    failures: [...failures].slice(0, 5).map(([why, sessions]) => ({ why, sessions })),
  };
}

/** The largest batch of a sweep that held the success threshold (0 when none did). */
export const maxBatch = (results: readonly BatchResult[], threshold = 0.95) =>
  results.filter((result) => result.success_rate >= threshold).reduce((most, result) => Math.max(most, result.sessions), 0);

const pause = (seconds: number) => (seconds > 0 ? new Promise((resolve) => setTimeout(resolve, seconds * 1000)) : Promise.resolve());

function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! * 10) / 10;
}

/** A sweep's table, in OpenEnv's terms. */
export function scaleTable(results: readonly BatchResult[]): string {
  const rows = results.map(
    (r) =>
      `| ${r.sessions} | ${r.wait} | ${(r.success_rate * 100).toFixed(1)} % | ${Math.round(r.requests_per_s)} | ${r.latency_ms.p50} | ${r.latency_ms.p99} ` +
      `| ${r.connect_ms.p99} | ${r.seconds.toFixed(1)} |`,
  );
  return ['| sessions | wait s | success | req/s | p50 ms | p99 ms | connect p99 ms | batch s |', '|---|---|---|---|---|---|---|---|', ...rows].join('\n');
}
