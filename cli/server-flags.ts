import { domains } from '../domains/index.js';
import { HAZARD_VARIABLES, HazardConfigError } from '../hazards/config.js';
import { hazardsFromEnvironment } from '../hazards/setup.js';
import { envWord } from '../lib/text.js';
import { CONFIG_VARIABLES, ConfigError, fixtureVariable, loadConfig } from '../server/core/config.js';
import { type Option, UsageError, type Values } from './command.js';

// The flags of `serve` and `hazards`: one per variable the server reads (server/core/config.ts, the hazard
// variables, FIXTURE_<DOMAIN>), named after it (`--port` sets PORT), so the two never drift apart.

const VARIABLES: Readonly<Record<string, string>> = {
  ...CONFIG_VARIABLES,
  ...Object.fromEntries(domains.map((domain) => [fixtureVariable(domain.name), `load the ${domain.name} database from this file`])),
  ...HAZARD_VARIABLES,
};

/** `HAZARD_RATE` → `hazard-rate`. */
const flagName = (variable: string) => variable.toLowerCase().replaceAll('_', '-');

const PER_TOOL = 'hazard';

/** Every server variable as a flag; `--hazard KIND[:TOOL]=SETTING` for HAZARD__<KIND>[__<TOOL>]. */
export const serverOptions: readonly Option[] = [
  ...Object.entries(VARIABLES).map(([variable, description]) => ({ name: flagName(variable), value: 'VALUE', description: `${variable}: ${description}` })),
  {
    name: PER_TOOL,
    value: 'KIND[:TOOL]=SETTING',
    multiple: true,
    description: 'HAZARD__<KIND>[__<TOOL>]: a kind on its tools, or on one tool: on, off or a probability',
  },
];

/** The variables the flags set, over `env`. */
function environmentFrom(values: Values, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const set: NodeJS.ProcessEnv = {};
  for (const variable of Object.keys(VARIABLES)) {
    const value = values[flagName(variable)];
    if (typeof value === 'string') set[variable] = value;
  }
  for (const setting of (values[PER_TOOL] as string[] | undefined) ?? []) {
    const match = /^([a-z0-9_]+)(?::([\w-]+))?=(.+)$/i.exec(setting);
    if (!match)
      throw new UsageError(`--${PER_TOOL} ${setting}: expected KIND=SETTING or KIND:TOOL=SETTING (transient_failure=0.3, feature_limit:track_order=on)`);
    const [, kind, tool, value] = match;
    set[`HAZARD__${envWord(kind!)}${tool ? `__${envWord(tool)}` : ''}`] = value;
  }
  return { ...env, ...set };
}

/**
 * The environment the flags make, checked as the server checks it: a bad value given by a flag is a
 * UsageError naming the flag; one from the environment is left for the server to report.
 */
export function flaggedEnvironment(values: Values, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const flagged = environmentFrom(values, {});
  const merged = { ...env, ...flagged };
  try {
    loadConfig(merged, domains);
    hazardsFromEnvironment(merged, domains);
  } catch (error) {
    if (!(error instanceof ConfigError || error instanceof HazardConfigError)) throw error;
    const culprit = Object.keys(flagged).find((variable) => error.message.includes(variable));
    if (culprit) throw new UsageError(`${culprit in VARIABLES ? `--${flagName(culprit)}` : `--${PER_TOOL}`}: ${error.message}`);
  }
  return merged;
}
