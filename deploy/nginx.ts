import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// The shipped nginx configuration (deploy/nginx/wildtools.conf) for other replicas than its example's, and
// nginx run with it in the foreground: what the scale test and the cluster benchmark put in front of
// replicas on loopback.

export const NGINX = '/usr/sbin/nginx';

export interface NginxSetup {
  /** The replicas' addresses, as their CLUSTER_PEERS lists them, in its order. */
  replicas: readonly string[];
  /** Where nginx listens. */
  listen: string;
  /** A folder of its own: the configuration, the pid file, the logs, the temporary files. */
  dir: string;
  workerProcesses?: number;
}

/** deploy/nginx/wildtools.conf with these replicas in both upstream blocks and this listen address. */
export function renderSite({ replicas, listen }: Pick<NginxSetup, 'replicas' | 'listen'>): string {
  const site = readFileSync(new URL('./nginx/wildtools.conf', import.meta.url), 'utf8');
  const servers = (suffix: string) => replicas.map((replica) => `    server ${replica}${suffix};`).join('\n');
  const rendered = site
    .replace(/(upstream wildtools_sessions \{\n\s*hash [^\n]+\n)(?:\s*server [^\n]+\n)+/, (_all, head: string) => `${head}${servers(' max_fails=0')}\n`)
    .replace(/(upstream wildtools_any \{\n)(?:\s*server [^\n]+\n)+/, (_all, head: string) => `${head}${servers('')}\n`)
    .replace(/listen 8080;/, `listen ${listen};`);
  if (rendered === site) throw new Error('deploy/nginx/wildtools.conf no longer has the upstream blocks this renders');
  return rendered;
}

/** A whole nginx.conf around the site, with every path inside `dir`. */
export function renderNginx(setup: NginxSetup): string {
  const { dir } = setup;
  return [
    `worker_processes ${setup.workerProcesses ?? 1};`,
    'daemon off;',
    `pid ${join(dir, 'nginx.pid')};`,
    `error_log ${join(dir, 'error.log')} warn;`,
    'events { worker_connections 8192; }',
    'http {',
    '  access_log off;',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${join(dir, `${kind}_temp`)};`),
    `  include ${join(dir, 'wildtools.conf')};`,
    '}',
    '',
  ].join('\n');
}

/** nginx in the foreground with this setup, once it accepts connections on `listen` (host:port). */
export async function startNginx(setup: NginxSetup, nginx = NGINX): Promise<ChildProcess> {
  mkdirSync(setup.dir, { recursive: true });
  writeFileSync(join(setup.dir, 'wildtools.conf'), renderSite(setup));
  writeFileSync(join(setup.dir, 'nginx.conf'), renderNginx(setup));
  const child = spawn(nginx, ['-p', setup.dir, '-c', join(setup.dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const deadline = performance.now() + 15_000;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${errors}`);
    try {
      await fetch(`http://${setup.listen}/health`);
      return child;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  child.kill('SIGTERM');
  throw new Error(`nginx did not listen on ${setup.listen} within 15 s: ${errors}`);
}
