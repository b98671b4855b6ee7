import { ENABLE_ALIASES, GROUPS, isKind, KINDS, type KindName } from './catalog.js';
import type { Assignment, ToolRef } from './assignment.js';
import { HazardSpec, type Setting } from './spec.js';
import { flagValue, isFlagWord } from '../lib/flag.js';
import { isObject } from '../lib/object.js';

/** One setting: these kinds, on these tools (or on the tools they are assigned to), at p. */
interface Rule {
  kinds: readonly KindName[];
  /** `assigned`: every tool the kind is assigned to; otherwise exactly these tools. */
  tools: 'assigned' | readonly ToolRef[];
  p: number;
  /** Where the setting came from, as GET /hazards reports it. */
  source: string;
}

/** Settings from one source; later layers override earlier ones. */
export interface Layer {
  rules: Rule[];
  hints?: boolean;
  maxConsecutive?: number;
  latencyMs?: number;
}

export class HazardConfigError extends Error {}

const PROBABILITY = /^(0(\.\d+)?|1(\.0+)?|\.\d+)$/;

const fail = (message: string): never => {
  throw new HazardConfigError(message);
};

function probability(value: Setting | string, rate: number, where: string): number {
  if (value === 'on' || value === true || value === 'true') return rate;
  if (value === 'off' || value === false || value === 'false') return 0;
  const p = typeof value === 'number' ? value : PROBABILITY.test(value) ? Number(value) : NaN;
  return Number.isNaN(p) ? fail(`${where}: '${value}' is not on, off or a probability from 0 to 1`) : p;
}

function kindsOf(word: string, where: string, groups: boolean): readonly KindName[] {
  const lower = word.trim().toLowerCase();
  const group = groups ? GROUPS.get(lower) : undefined;
  if (group) return group;
  if (isKind(lower)) return [lower];
  const known = groups ? [...GROUPS.keys(), ...KINDS] : KINDS;
  return fail(`${where}: unknown hazard ${groups ? 'kind or group' : 'kind'} '${word}' (known: ${known.join(', ')})`);
}

function toolsOf(assignment: Assignment, name: string, kinds: readonly KindName[], where: string): ToolRef[] {
  const refs = assignment.resolve(name);
  if (refs.length === 0) fail(`${where}: unknown tool '${name}'`);
  for (const kind of kinds) {
    const usable = refs.filter((ref) => assignment.scenario(ref, kind));
    if (usable.length === 0) {
      const withOne = assignment.tools.filter((ref) => assignment.assigned(ref, kind)).map((ref) => ref.tool);
      fail(`${where}: tool '${name}' has no ${kind} scenario (tools with one: ${[...new Set(withOne)].join(', ') || 'none'})`);
    }
  }
  return refs;
}

/** The environment's hazard variables as a layer. Any unknown word is an error naming the variable. */
export function layerFromEnv(env: NodeJS.ProcessEnv, assignment: Assignment): Layer & { seed?: string; configFile?: string } {
  const value = (name: string) => env[name]?.trim() || undefined;
  const layer: Layer & { seed?: string; configFile?: string } = { rules: [] };
  const rateText = value('HAZARD_RATE');
  const rate = rateText === undefined ? 1 : PROBABILITY.test(rateText) ? Number(rateText) : fail(`HAZARD_RATE: '${rateText}' is not a probability from 0 to 1`);

  const enabled = value('HAZARDS');
  if (enabled) {
    for (const word of enabled.split(',').filter((w) => w.trim() !== '')) {
      const kinds = kindsOf(word, 'HAZARDS', true);
      if (word.trim().toLowerCase() === 'none') layer.rules.push({ kinds: KINDS, tools: 'assigned', p: 0, source: 'HAZARDS=none' });
      else layer.rules.push({ kinds, tools: 'assigned', p: rate, source: `HAZARDS=${word.trim()}` });
    }
  }
  const perKind: Rule[] = [];
  const perTool: Rule[] = [];
  for (const [name, raw] of Object.entries(env).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (raw === undefined || raw.trim() === '') continue;
    const hazard = /^HAZARD__([A-Z0-9_]+?)(?:__(.+))?$/.exec(name);
    const alias = /^ENABLE__([A-Z0-9_]+?)__(.+)$/.exec(name);
    if (hazard) {
      const [, kindWord, toolName] = hazard;
      const kinds = kindsOf(kindWord!, name, false);
      const p = probability(raw.trim(), rate, name);
      if (toolName === undefined) perKind.push({ kinds, tools: 'assigned', p, source: name });
      else perTool.push({ kinds, tools: toolsOf(assignment, toolName, kinds, name), p, source: name });
    } else if (alias) {
      const [, type, toolName] = alias;
      const kind = ENABLE_ALIASES.get(type!) ?? fail(`${name}: unknown type '${type}' (known: ${[...ENABLE_ALIASES.keys()].join(', ')})`);
      perTool.push({ kinds: [kind], tools: toolsOf(assignment, toolName!, [kind], name), p: probability(raw.trim(), rate, name), source: name });
    } else if (name.startsWith('HAZARD') && !KNOWN_VARIABLES.has(name)) {
      fail(`${name}: unknown hazard variable (known: ${[...KNOWN_VARIABLES].join(', ')}, HAZARD__<KIND>, HAZARD__<KIND>__<TOOL>, ENABLE__<TYPE>__<TOOL>)`);
    }
  }
  layer.rules.push(...perKind, ...perTool);

  const hints = value('HAZARD_HINTS');
  if (hints !== undefined) layer.hints = isFlagWord(hints) ? flagValue(hints) : fail(`HAZARD_HINTS: '${hints}' is not 1, 0, true or false`);
  const max = value('HAZARD_MAX_CONSECUTIVE');
  if (max !== undefined)
    layer.maxConsecutive = /^[1-9]\d?$/.test(max) ? Number(max) : fail(`HAZARD_MAX_CONSECUTIVE: '${max}' is not a whole number from 1 to 99`);
  const latency = value('HAZARD_LATENCY_MS');
  if (latency !== undefined)
    layer.latencyMs = /^\d{1,6}$/.test(latency) ? Number(latency) : fail(`HAZARD_LATENCY_MS: '${latency}' is not a number of milliseconds`);
  const seed = value('HAZARD_SEED');
  if (seed !== undefined) layer.seed = seed;
  const configFile = value('HAZARD_CONFIG');
  if (configFile !== undefined) layer.configFile = configFile;
  return layer;
}

/** The hazard variables besides HAZARD__<KIND>[__<TOOL>] and ENABLE__<TYPE>__<TOOL>: name → what it sets. */
export const HAZARD_VARIABLES: Readonly<Record<string, string>> = {
  HAZARDS: 'comma list of kinds and groups to switch on (failures, drift, sponsored, conflict, adhoc, all…)',
  HAZARD_RATE: 'probability of "on" and of groups (default 1)',
  HAZARD_SEED: 'seed of the schedule (default 0), for sessions created without one',
  HAZARD_HINTS: '1: each hazard carries a diagnostic hint',
  HAZARD_CONFIG: 'a JSON file of hazard settings',
  HAZARD_MAX_CONSECUTIVE: 'most retryable faults in a row on one tool (default 2)',
  HAZARD_LATENCY_MS: 'delay of the latency hazard (default 1500)',
};
const KNOWN_VARIABLES = new Set(Object.keys(HAZARD_VARIABLES));

/**
 * An own `__proto__` key (an object built by code, or by JSON.parse) would vanish silently in
 * validation, and the setting with it: it is an unknown word like any other.
 */
function refuseProtoKeys(input: unknown, source: string): void {
  if (!isObject(input)) return;
  const { kinds, tools } = input;
  if (isObject(kinds) && Object.hasOwn(kinds, '__proto__')) fail(`${source}: kinds.__proto__: unknown hazard kind '__proto__'`);
  if (!isObject(tools)) return;
  if (Object.hasOwn(tools, '__proto__')) fail(`${source}: tools.__proto__: unknown tool '__proto__'`);
  for (const [tool, byKind] of Object.entries(tools)) {
    if (isObject(byKind) && Object.hasOwn(byKind, '__proto__')) fail(`${source}: tools.${tool}.__proto__: unknown hazard kind '__proto__'`);
  }
}

/** A JSON spec (config file, runtime, session) as a layer; errors name the field and the word. */
export function layerFromSpec(input: unknown, assignment: Assignment, source: string): Layer {
  refuseProtoKeys(input, source);
  const parsed = HazardSpec.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    fail(`${source}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  const spec = parsed.data!;
  const rate = spec.rate ?? 1;
  const rules: Rule[] = [];
  for (const word of spec.enable ?? []) {
    const none = word.trim().toLowerCase() === 'none';
    rules.push({ kinds: none ? KINDS : kindsOf(word, `${source}: enable`, true), tools: 'assigned', p: none ? 0 : rate, source: `${source} enable ${word}` });
  }
  for (const [kindWord, setting] of Object.entries(spec.kinds ?? {})) {
    const where = `${source}: kinds.${kindWord}`;
    rules.push({ kinds: kindsOf(kindWord, where, false), tools: 'assigned', p: probability(setting, rate, where), source: `${source} kinds.${kindWord}` });
  }
  for (const [toolName, byKind] of Object.entries(spec.tools ?? {})) {
    for (const [kindWord, setting] of Object.entries(byKind)) {
      const where = `${source}: tools.${toolName}.${kindWord}`;
      const kinds = kindsOf(kindWord, where, false);
      rules.push({
        kinds,
        tools: toolsOf(assignment, toolName, kinds, where),
        p: probability(setting, rate, where),
        source: `${source} tools.${toolName}.${kindWord}`,
      });
    }
  }
  return {
    rules,
    ...(spec.hints !== undefined ? { hints: spec.hints } : {}),
    ...(spec.max_consecutive !== undefined ? { maxConsecutive: spec.max_consecutive } : {}),
    ...(spec.latency_ms !== undefined ? { latencyMs: spec.latency_ms } : {}),
  };
}
