import { profileKinds } from '../../lib/hazard-profiles.js';
import type { ModelOptions } from '../eval-chat.js';

// npm run tau2's options.

const TAU2_USAGE =
  'npm run tau2 -- --tau2 <checkout> [--domains retail,airline] [--profile network|writes|contract|all|kind,kind] [--seed S] [--rate 1] [--k 4] [--tasks ' +
  "'retail/tau2-1*'] " +
  '[--out reports] [--concurrency 4] [--base-url URL --model NAME [--api-key K | --api-key-env VAR] [--max-steps 30] [--temperature 0]]';

export interface Tau2Flags {
  checkout: string;
  domains: string[];
  profile: string;
  kinds: string[];
  /** The first seed: repetition r runs on seed + r (its hazard draws). */
  seed: number;
  rate: number;
  k: number;
  tasks: string[];
  out: string;
  concurrency: number;
  maxSteps: number;
  model?: ModelOptions;
}

const number = (name: string, text: string, min: number, max: number, integer: boolean) => {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value)))
    throw new Error(`${name} takes ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}, not ${JSON.stringify(text)}\nusage: ${TAU2_USAGE}`);
  return value;
};

/** The options of `npm run tau2`; throws with the usage on a mistake. */
export function tau2Flags(argv: readonly string[], env: NodeJS.ProcessEnv): Tau2Flags {
  const flags: Omit<Tau2Flags, 'kinds' | 'model'> = {
    checkout: '',
    domains: ['retail', 'airline'],
    profile: 'all',
    seed: 1,
    rate: 1,
    k: 4,
    tasks: [],
    out: 'reports',
    concurrency: 4,
    maxSteps: 30,
  };
  let baseUrl = '';
  let model = '';
  let apiKey = env['OPENAI_API_KEY'] || undefined;
  let temperature = 0;
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const value = () => {
      const found = inline ?? argv[++i];
      if (found === undefined) throw new Error(`${name} needs a value\nusage: ${TAU2_USAGE}`);
      return found;
    };
    if (name === '--tau2') flags.checkout = value();
    else if (name === '--domains') flags.domains = value().split(',');
    else if (name === '--profile') flags.profile = value();
    else if (name === '--seed') {
      const seed = value();
      if (!/^\d{1,9}$/.test(seed)) throw new Error(`--seed ${JSON.stringify(seed)}: a whole number`);
      flags.seed = Number(seed);
    } else if (name === '--rate') flags.rate = number(name, value(), 0, 1, false);
    else if (name === '--k') flags.k = number(name, value(), 1, 100, true);
    else if (name === '--tasks') flags.tasks.push(...value().split(','));
    else if (name === '--out') flags.out = value();
    else if (name === '--concurrency') flags.concurrency = number(name, value(), 1, 64, true);
    else if (name === '--max-steps') flags.maxSteps = number(name, value(), 1, 1000, true);
    else if (name === '--base-url') baseUrl = value();
    else if (name === '--model') model = value();
    else if (name === '--api-key') apiKey = value();
    else if (name === '--api-key-env') apiKey = env[value()] || undefined;
    else if (name === '--temperature') temperature = number(name, value(), 0, 2, false);
    else throw new Error(`unknown option ${name}\nusage: ${TAU2_USAGE}`);
  }
  if (!flags.checkout) throw new Error(`--tau2 <checkout> is required\nusage: ${TAU2_USAGE}`);
  if (Boolean(baseUrl) !== Boolean(model)) throw new Error(`--base-url and --model go together\nusage: ${TAU2_USAGE}`);
  const unknownDomain = flags.domains.find((domain) => domain !== 'retail' && domain !== 'airline');
  if (unknownDomain !== undefined) throw new Error(`--domains takes retail and airline, not ${JSON.stringify(unknownDomain)}`);
  const kinds = profileKinds(flags.profile);
  return { ...flags, kinds, ...(model ? { model: { baseUrl, model, temperature, ...(apiKey ? { apiKey } : {}) } } : {}) };
}
