import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';

const main = new URL('../../server/main.ts', import.meta.url).pathname;
/** Node itself with tsx's loader: the child is the server, so a signal reaches the server and nothing else. */
const command = [process.execPath, ['--import', 'tsx', main]] as const;

export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  /** Where it listens, as it printed it. */
  origin: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

/**
 * The server's entry point as a child process with its own environment (LOG_LEVEL info, so that it
 * prints where it listens). The child is compiled by tsx, not by the test runner's loader: its
 * coverage would not map onto the same source ranges, so it is left out of the report.
 */
export function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  return spawnListening(command[0], command[1], { env: { ...process.env, _TAPJS_PROCESSINFO_COVERAGE_: '0', PORT: '0', LOG_LEVEL: 'info', ...env } });
}

/** Any command that serves (the CLI, a packed bin) as a child process, once it printed where it listens. */
export function spawnListening(file: string, args: readonly string[], options: { env: NodeJS.ProcessEnv; cwd?: string }): Promise<ServerProcess> {
  const child = spawn(file, args, { ...options, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening at (http:\/\/[^\s"]+)/.exec(output);
      if (match) resolve({ child, origin: match[1]!.replace('0.0.0.0', '127.0.0.1'), output: () => output, exited });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then((code) => reject(new Error(`the server exited (${code}) before listening:\n${output}`)));
  });
}

/** Runs the command to its end (for startup failures): exit code and what it printed. */
export async function runServerToExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(command[0], command[1], {
    env: { ...process.env, _TAPJS_PROCESSINFO_COVERAGE_: '0', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  return { code, output };
}
