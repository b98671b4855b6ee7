import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The suite's two tiers. The fast tier (`npm test`) runs every test file that is not full-only, grouped: one
// process per group (`test/fast/<group>.test.ts`), so the code graph and the fixtures load once per group rather
// than once per file. The full tier (`npm run test:full`) runs those groups and each full-only file in a process
// of its own. A file belongs to the group whose folder prefix is the longest that matches it.

/** Folders or files (by prefix, from the repository root) that only the full tier runs, and why. */
export const FULL_ONLY: Readonly<Record<string, string>> = {
  'test/agents/validity/': 'plays every task instance under every hazard kind it targets (minutes)',
  'test/agents/compositions/': 'plays tasks under several kinds at once, on many seeds',
  'test/agents/adversaries/': 'the scorer against scripted cheats over every task',
  'test/agents/eval.test.ts': 'runs the eval script in child processes',
  'test/tasks/instances.test.ts': 'replays every task template on several seeds',
  'test/server/bundle.test.ts': 'needs the compiled bundle (npm run compile)',
  'test/server/crash.test.ts': 'kills servers with SIGKILL under write load',
  'test/server/startup.test.ts': 'starts real server processes',
  'test/server/access.test.ts': 'starts real server processes on other interfaces',
  'test/server/proxy/startup.test.ts': 'starts real server processes with proxy configurations',
  'test/server/surfaces-fuzz.test.ts': 'fuzzes every surface',
  'test/fuzz/': 'fuzzes every tool from its schema',
  'test/lib/code-cache.test.ts': 'starts processes to compare cold and cached starts',
  'test/cluster/': 'nginx in front of several server processes',
  'test/cli/pack.test.ts': 'packs the project and installs the tarball',
  'test/cli/installed.test.ts': 'packs the project, installs the tarball with npm, and starts servers 20 times',
  'test/cli/consumer-engines.test.ts': "packs the project and resolves a consumer's install from the npm registry",
  'test/cli/cli.test.ts': 'runs the command line in child processes',
  'test/browser/': "Debian's chromium against the session pages",
  'test/examples/': 'each framework example against a live server; Python with python3',
  'test/repository/readme.test.ts': "runs the READMEs' runnable blocks: bash, curl, tsx and python3 in child processes",
  'test/python/': 'the Python package: its unittest suite in python3, and pip installing it into a fresh venv',
};

/**
 * Fast groups: the folders (or files) each one runs, and its time limit: about five times what it takes on an idle
 * 2-core machine (17 to 58 s), never below the suite's default of 180 s, so that a loaded machine (CI beside other
 * work) does not fail a group that works.
 */
export const FAST_GROUPS: Readonly<Record<string, { under: readonly string[]; limitSeconds: number }>> = {
  'domains-airline-retail': { under: ['test/domains/airline/', 'test/domains/retail/', 'test/domains/common/', 'test/domains/'], limitSeconds: 240 },
  'domains-smart-home-weather': { under: ['test/domains/smart-home/', 'test/domains/weather/'], limitSeconds: 180 },
  hazards: { under: ['test/hazards/'], limitSeconds: 240 },
  scenarios: { under: ['test/scenarios/'], limitSeconds: 180 },
  server: { under: ['test/server/'], limitSeconds: 240 },
  transports: { under: ['test/server/mcp/', 'test/server/openenv/', 'test/server/proxy/'], limitSeconds: 180 },
  foundations: {
    under: [
      'test/lib/',
      'test/scoring/',
      'test/client/',
      'test/repository/',
      'test/fixtures/',
      'test/openapi/',
      'test/tasks/',
      'test/tau2/',
      'test/cli/',
      'test/agents/',
      'test/bench/',
    ],
    limitSeconds: 300,
  },
};

/**
 * What CI runs again on each other Node.js release it supports (`scripts/test-node-versions.ts`), by prefix, and
 * why: the parts that lean on the runtime itself (processes, sockets, V8's code cache, the file system, npm).
 */
export const NODE_VERSIONS_SUBSET: Readonly<Record<string, string>> = {
  'test/server/startup.test.ts': 'start: real server processes from the sources, configured by flags and files',
  'test/server/bundle.test.ts': "the bundle: V8 takes the build's code cache, and the bundle serves every surface",
  'test/domains/own-keys.test.ts': 'tools: every tool of every domain called over HTTP, valid and hostile arguments',
  'test/server/mcp/': 'MCP: the SDK over Streamable HTTP and stdio',
  'test/server/openenv/http.test.ts': 'OpenEnv over HTTP: reset, step, state',
  'test/server/openenv/ws.test.ts': "OpenEnv over WebSocket: this runtime's sockets under the ws server",
  'test/server/openenv/conformance.test.ts': "OpenEnv: its own clients' messages, as emulated from OpenEnv's sources",
  'test/server/persistence.test.ts': 'persistence: sessions written to DATA_DIR and read back after a restart',
  'test/cli/': 'the CLI in child processes, and the packed tarball installed and run',
};

/** The files NODE_VERSIONS_SUBSET names, in order. */
export const nodeVersionsFiles = (): string[] => testFiles().filter((file) => Object.keys(NODE_VERSIONS_SUBSET).some((prefix) => file.startsWith(prefix)));

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Every test file of the repository (paths from its root), the fast groups' own entry files excepted. */
export function testFiles(): string[] {
  return (readdirSync(`${ROOT}test`, { recursive: true }) as string[])
    .map((file) => `test/${file.replaceAll('\\', '/')}`)
    .filter((file) => file.endsWith('.test.ts') && !file.startsWith('test/fast/'))
    .sort();
}

const longestPrefix = (file: string, prefixes: readonly string[]): string | undefined =>
  prefixes.filter((prefix) => file.startsWith(prefix)).sort((a, b) => b.length - a.length)[0];

/** The tier of a test file: full-only, or the fast group it runs in (undefined when none claims it). */
export function tierOf(file: string): { full: string } | { group: string } | undefined {
  const full = longestPrefix(file, Object.keys(FULL_ONLY));
  if (full) return { full: FULL_ONLY[full]! };
  let best: { group: string; length: number } | undefined;
  for (const [group, { under }] of Object.entries(FAST_GROUPS)) {
    const prefix = longestPrefix(file, under);
    if (prefix && prefix.length > (best?.length ?? 0)) best = { group, length: prefix.length };
  }
  return best && { group: best.group };
}

/** The files a fast group runs, in order. */
export const groupFiles = (group: string): string[] =>
  testFiles().filter((file) => {
    const tier = tierOf(file);
    return tier !== undefined && 'group' in tier && tier.group === group;
  });

/** The files only the full tier runs. */
export const fullOnlyFiles = (): string[] =>
  testFiles().filter((file) => {
    const tier = tierOf(file);
    return tier !== undefined && 'full' in tier;
  });

export const repositoryRoot = ROOT;
