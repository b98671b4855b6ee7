import autocannon from 'autocannon';

// Load from this process with autocannon: a server's throughput on one call, and the figures a scenario reports.

export interface LoadOptions {
  connections: number;
  /** Seconds measured, after `warmup` seconds of the same load that are not. */
  seconds: number;
  warmup: number;
}

export interface Call {
  port: number;
  path: string;
  method?: 'GET' | 'POST' | 'PATCH';
  body?: unknown;
  headers?: Record<string, string>;
  /** Spread the calls over this many sessions (`/s/bench-N/…`). */
  sessions?: number;
  /** Each request's path made anew (a new session per request, say); overrides `sessions`. */
  pathOf?: (n: number) => string;
}

export interface Throughput {
  /** Calls served per second: answers of any status, and connections a hazard broke on purpose. */
  perSecond: number;
  /** Calls served in all. */
  calls: number;
  ok: number;
  /** Answers with a status of 400 or more. */
  failed: number;
  /** Connections that broke without an answer. */
  errors: number;
  p50: number;
  p99: number;
}

/** A run's result, with its duration measured here (autocannon rounds it to whole seconds). */
type Run = autocannon.Result & { seconds: number };

async function fire(call: Call, options: { connections: number; duration?: number; amount?: number }): Promise<Run> {
  let n = 0;
  const pathOf = call.pathOf ?? (call.sessions ? (i: number) => `/s/bench-${i % call.sessions!}${call.path}` : undefined);
  const started = performance.now();
  const result = await autocannon({
    url: `http://127.0.0.1:${call.port}${call.path}`,
    method: call.method ?? 'POST',
    headers: { ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}), ...call.headers },
    ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
    ...options,
    ...(pathOf ? { requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, path: pathOf(n++) }) }] } : {}),
  });
  return { ...result, seconds: (performance.now() - started) / 1000 };
}

function throughputOf(result: Run): Throughput {
  const calls = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'] + result.errors;
  return {
    perSecond: calls / result.seconds,
    calls,
    ok: result['2xx'],
    failed: result['4xx'] + result['5xx'],
    errors: result.errors + result.timeouts,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

/** Throughput of one call over `seconds`, after a warm-up. */
export async function measure(call: Call, options: LoadOptions): Promise<Throughput> {
  if (options.warmup > 0) await fire(call, { connections: options.connections, duration: options.warmup });
  return throughputOf(await fire(call, { connections: options.connections, duration: options.seconds }));
}

/**
 * Throughput over `seconds` after the warm-up, with what each of `counters` (CPU time in µs, of the processes
 * serving) grew by per call during the measured part alone.
 */
export async function measureCost(call: Call, options: LoadOptions, counters: () => number[]): Promise<Throughput & { perCall: number[] }> {
  if (options.warmup > 0) await fire(call, { connections: options.connections, duration: options.warmup });
  const before = counters();
  const result = await measure(call, { ...options, warmup: 0 });
  const after = counters();
  return { ...result, perCall: after.map((value, i) => (value - before[i]!) / result.calls) };
}

/** Sends `amount` requests as fast as the server answers them. */
export async function burst(call: Call, connections: number, amount: number): Promise<Throughput> {
  return throughputOf(await fire(call, { connections, amount }));
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
