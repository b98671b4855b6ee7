import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

// A server in a child process, so that the load generator and the server do not share a process:
// started, and returned once it answers /health.

/** Starts `node <script>` (or `tsx <script>` for TypeScript) on `port` and waits until /health answers. */
export async function startChildServer(script: string, port: number, env: Record<string, string | undefined> = {}): Promise<ChildProcess> {
  const tsx = new URL('../node_modules/.bin/tsx', import.meta.url).pathname;
  const [command, args] = script.endsWith('.ts') ? [tsx, [script]] : [process.execPath, [script]];
  const child = spawn(command, args, { env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'inherit', 'inherit'] });
  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline) {
    try {
      await fetch(`http://127.0.0.1:${port}/health`);
      return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGTERM');
  throw new Error(`${script} did not answer /health within 30 s`);
}

/** A loopback port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
