import { residentBytes, startChildServer, stopChild } from '../child-server.js';
import type { BenchContext, Figure, Scenario } from '../scenario.js';

const PORT = 18188;
/** New (task, seed) pairs timed, each on a seed no session used before: its domain's world is generated for it. */
const NEW_SEEDS = 200;
/** Worlds created per domain to see what a cached one costs (the server keeps 16). */
const WORLDS = 12;

const percentile = (values: readonly number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))]!;

async function send(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<any> {
  const answer = await fetch(`http://127.0.0.1:${PORT}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${(await answer.text()).slice(0, 200)}`);
  return answer.status === 204 ? undefined : answer.json();
}

/** Milliseconds to create the session of a (task, seed) pair, then deleted. */
async function firstSession(task: string, seed: number, id: string): Promise<number> {
  const started = performance.now();
  await send('POST', '/sessions', { id, task, seed, kinds: [] });
  const ms = performance.now() - started;
  await send('DELETE', `/sessions/${id}`);
  return ms;
}

/** Resident memory per cached world (and its instance) of a domain, in a fresh server: its growth over WORLDS new seeds of one task. */
async function memoryPerWorld(context: BenchContext, task: string, domain: string): Promise<Figure> {
  const child = await startChildServer(context.server, PORT + 1, { LOG_LEVEL: 'warn' });
  const at = (path: string, body?: unknown) =>
    fetch(`http://127.0.0.1:${PORT + 1}${path}`, {
      method: body === undefined ? 'DELETE' : 'POST',
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
  try {
    await at('/sessions', { id: 'warm', task, seed: 1, kinds: [] });
    await at('/sessions/warm');
    const before = residentBytes(child);
    for (let i = 0; i < WORLDS; i++) {
      await at('/sessions', { id: `m${i}`, task, seed: 500_000 + i, kinds: [] });
      await at(`/sessions/m${i}`);
    }
    const perWorld = Math.max(0, (residentBytes(child) - before) / WORLDS / 1_048_576);
    context.log(`    ${domain}: ${perWorld.toFixed(2)} MB resident per cached world and instance`);
    return { scenario: 'instances', metric: `${domain}: memory per cached world`, value: Math.round(perWorld * 100) / 100, unit: 'MB' };
  } finally {
    await stopChild(child);
  }
}

export const instances: Scenario = {
  name: 'instances',
  summary: `the first session of a new (task, seed): ${NEW_SEEDS} pairs on new seeds (a world each), the same on known worlds; memory per cached world`,
  async run(context: BenchContext) {
    const child = await startChildServer(context.server, PORT, { LOG_LEVEL: 'warn', MAX_SESSIONS: '100000' });
    try {
      const tasks = ((await send('GET', '/tasks')) as { id: string; domain: string }[]).map((task) => task);
      // Warm: the templates and each domain's generator are loaded once per server.
      for (const domain of new Set(tasks.map((task) => task.domain)))
        await firstSession(tasks.find((task) => task.domain === domain)!.id, 9_999, `warm-${domain}`);
      const fresh: number[] = [];
      for (let i = 0; i < NEW_SEEDS; i++) fresh.push(await firstSession(tasks[i % tasks.length]!.id, 100_000 + i, `new-${i}`));
      // The same tasks on seeds whose worlds are generated already: the instance alone (pick, request, reference run twice).
      const known: number[] = [];
      for (let i = 0; i < NEW_SEEDS; i++) known.push(await firstSession(tasks[(i + 1) % tasks.length]!.id, 100_000 + i - (i % 8), `known-${i}`));
      const figures: Figure[] = [
        {
          scenario: 'instances',
          metric: 'first session of a new (task, seed), new world: p50',
          value: percentile(fresh, 0.5),
          unit: 'ms',
          target: { at: 'most', value: 100 },
        },
        { scenario: 'instances', metric: 'first session of a new (task, seed), new world: p99', value: percentile(fresh, 0.99), unit: 'ms' },
        { scenario: 'instances', metric: 'first session of a new task on a generated world: p50', value: percentile(known, 0.5), unit: 'ms' },
        { scenario: 'instances', metric: 'first session of a new task on a generated world: p99', value: percentile(known, 0.99), unit: 'ms' },
      ];
      context.log(
        `    new world: p50 ${percentile(fresh, 0.5).toFixed(1)} ms, p99 ${percentile(fresh, 0.99).toFixed(1)} ms; known world: ` +
          `p50 ${percentile(known, 0.5).toFixed(1)} ms`,
      );
      for (const domain of new Set(tasks.map((task) => task.domain)))
        figures.push(await memoryPerWorld(context, tasks.find((task) => task.domain === domain)!.id, domain));
      return figures;
    } finally {
      await stopChild(child);
    }
  },
};
