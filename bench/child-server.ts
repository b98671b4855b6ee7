import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createServer } from 'node:net';

// A server in a child process, so that the load generator and the server do not share a process:
// started, and returned once it answers /health. With two cores or more, the server runs on core 0 and
// the load generator (this process, once pinLoadGenerator ran) on core 1, so that neither steals the other's.

const TASKSET = '/usr/bin/taskset';
/** Whether servers and load can have a core each here. */
export const PINNED = availableParallelism() >= 2 && existsSync(TASKSET);

/** Pins this process (every thread) to core 1, when servers are pinned to core 0. */
export function pinLoadGenerator(): void {
  if (PINNED) spawnSync(TASKSET, ['-a', '-cp', '1', String(process.pid)], { stdio: 'ignore' });
}

export interface ChildOptions {
  /** Run on core 0 (when PINNED); false for servers that must share the machine (several replicas). */
  pin?: boolean;
  /** Extra node flags. */
  nodeArgs?: readonly string[];
}

/** Starts `node <script>` (through tsx's loader for TypeScript) on `port` and waits until /health answers. */
export async function startChildServer(
  script: string,
  port: number,
  env: Record<string, string | undefined> = {},
  { pin = true, nodeArgs = [] }: ChildOptions = {},
): Promise<ChildProcess> {
  const node = [...nodeArgs, ...(script.endsWith('.ts') ? ['--import', 'tsx'] : []), script];
  const [command, args] = pin && PINNED ? [TASKSET, ['-c', '0', process.execPath, ...node]] : [process.execPath, node];
  const child = spawn(command, args, { env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'inherit', 'inherit'] });
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline) {
    try {
      await fetch(`http://127.0.0.1:${port}/health`);
      return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGTERM');
  throw new Error(`${script} did not answer /health within 60 s`);
}

/** Stops a child and waits for it to be gone. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await gone;
}

/** A child's resident memory, in bytes (Linux), read from /proc. */
export function residentBytes(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) * 1024;
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

/** CPU time a process has used so far (user and system, every thread), in microseconds (Linux). */
export function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are the 14th and 15th fields, in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}
