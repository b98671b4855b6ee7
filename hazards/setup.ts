import { readBoundedText, UnreadableFileError } from '../lib/bounded-file.js';
import { parseJsonText } from '../lib/json.js';
import type { HazardDomain } from './kind.js';
import { HazardConfigError, type Layer, layerFromEnv, layerFromSpec } from './config.js';
import { HazardEngine } from './engine.js';

/** Largest HAZARD_CONFIG file: settings for every tool of every domain fit many times over. */
const HAZARD_CONFIG_LIMIT = 1024 * 1024;

/**
 * The hazard engine as the environment configures it: HAZARD* and ENABLE__* variables, then
 * the HAZARD_CONFIG file (JSON, the shape of PUT /admin/hazards plus an optional `seed`).
 * Throws HazardConfigError naming the variable (or file) and the bad word.
 */
export function hazardsFromEnvironment(
  env: NodeJS.ProcessEnv,
  domains: readonly HazardDomain[],
  sleep?: (ms: number) => Promise<void>,
  /** Domains served besides the built-in ones (proxied upstreams), so that settings can name their tools. */
  attached: readonly HazardDomain[] = [],
): { engine: HazardEngine; seed?: string } {
  const engine = new HazardEngine({ domains, ...(sleep ? { sleep } : {}) });
  if (attached.length > 0) engine.attach(attached);
  const fromEnv = layerFromEnv(env, engine.assignment);
  const layers: Layer[] = [fromEnv];
  let seed = fromEnv.seed;
  if (fromEnv.configFile) {
    const path = fromEnv.configFile;
    let json: unknown;
    try {
      json = parseJsonText(readBoundedText(path, HAZARD_CONFIG_LIMIT));
    } catch (error) {
      if (error instanceof UnreadableFileError) throw new HazardConfigError(`HAZARD_CONFIG=${path}: ${error.message}`);
      throw new HazardConfigError(`HAZARD_CONFIG=${path}: cannot read it as JSON (${(error as Error).message})`);
    }
    const { seed: fileSeed, ...spec } = (typeof json === 'object' && json !== null ? json : {}) as { seed?: unknown };
    if (fileSeed !== undefined) {
      if (typeof fileSeed !== 'string' && typeof fileSeed !== 'number')
        throw new HazardConfigError(`HAZARD_CONFIG=${path}: seed: expected a string or a number`);
      seed = String(fileSeed);
    }
    layers.push(layerFromSpec(Array.isArray(json) ? json : spec, engine.assignment, `HAZARD_CONFIG=${path}`));
  }
  engine.setBaseLayers(layers);
  return { engine, ...(seed !== undefined ? { seed } : {}) };
}
