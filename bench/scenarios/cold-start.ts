import { spawn } from 'node:child_process';
import { PINNED } from '../child-server.js';
import { median } from '../load.js';
import type { Scenario } from '../scenario.js';

const PORT = 18184;
const STARTS = 7;

/** Milliseconds from spawning the server to its first answer to a tool call. */
async function firstAnswer(server: string, orderId: string): Promise<number> {
  const started = performance.now();
  const node = [process.execPath, server];
  const [command, ...args] = PINNED ? ['/usr/bin/taskset', '-c', '0', ...node] : node;
  const child = spawn(command!, args, { env: { ...process.env, PORT: String(PORT), LOG_LEVEL: 'warn' }, stdio: 'ignore' });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${server} exited with ${child.exitCode}`);
      try {
        const answer = await fetch(`http://127.0.0.1:${PORT}/retail/tools/get_order_details`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ order_id: orderId }),
        });
        if (answer.ok) return performance.now() - started;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
      if (performance.now() - started > 30_000) throw new Error(`${server} did not answer within 30 s`);
    }
  } finally {
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await gone;
  }
}

export const coldStart: Scenario = {
  name: 'cold-start',
  summary: `time from starting the server (npm start's command, four domains) to its first answer, median of ${STARTS}`,
  async run(context) {
    const times: number[] = [];
    for (let n = 0; n < STARTS; n++) times.push(await firstAnswer(context.server, context.orderId));
    context.log(`    ${times.map((ms) => ms.toFixed(0)).join(', ')} ms`);
    return [{ scenario: 'cold-start', metric: 'start to first answer', value: median(times), unit: 'ms', target: { at: 'most', value: 500 }, rounds: times }];
  },
};
