import { isObject } from '../lib/object.js';
import { Random } from '../lib/random.js';
import { headerText } from '../lib/text.js';
import type { CallContext } from './engine.js';
import type { HazardEvent } from './event.js';
import type { FollowUps } from './follow-ups.js';
import type { FollowUp, HazardCall, HazardKind, ScenarioBase } from './kind.js';
import { hitSeed } from './schedule.js';
import type { Table } from '../lib/table.js';

/** What the engine holds for one call of a hazard: its session's seed and settings, and its shared services. */
export interface CallEnvironment {
  seed: string;
  settings: { hints: boolean; latencyMs: number };
  sleep: (ms: number) => Promise<void>;
  followUps: FollowUps;
}

/** What a kind's stage receives for one call: the scenario, seeded draws, the hook argument, the journal. */
export function hazardCall(
  hazard: { kind: HazardKind; scenario: ScenarioBase; drawKey: string },
  context: CallContext,
  { seed, settings, sleep, followUps }: CallEnvironment,
): HazardCall<ScenarioBase> {
  const { kind, scenario } = hazard;
  const hint = kind.hint(scenario);
  // Read when a hook asks for it: most stages never touch the database (and a proxied upstream has none).
  let tables: Record<string, Table<unknown>> | undefined;
  const database = () => (tables ??= context.session.domain(context.domain).tables);
  // Made when a stage first draws: many stages never do, and seeding costs a hash.
  let drawn: Random | undefined;
  const random = () => (drawn ??= new Random(hitSeed(seed, context.session.id, hazard.drawKey, kind.kind, context.call)));
  return {
    scenario,
    context,
    get random() {
      return random();
    },
    hints: settings.hints,
    hint,
    get db() {
      return database();
    },
    hook: (result?: unknown) => ({
      args: isObject(context.args) ? context.args : {},
      get db() {
        return database();
      },
      get random() {
        return random();
      },
      // Call number 0 is never a call: its draws are the session's, the same on every call. Made when read.
      get sessionRandom() {
        return new Random(hitSeed(seed, context.session.id, hazard.drawKey, kind.kind, 0));
      },
      now: new Date(context.at),
      call: context.call,
      result,
    }),
    header: (name: string, value: string) => {
      context.headers[name] = headerText(value);
    },
    settings: { latencyMs: settings.latencyMs },
    sleep: sleep,
    record: (details = {}) => {
      const event: HazardEvent = {
        kind: kind.kind,
        family: kind.family,
        tool: context.tool.name,
        call: context.call,
        recovery: scenario.recovery ?? kind.recovery,
        hint,
        retryable: kind.retryable,
        ...details,
      };
      context.events.push(event);
      // In hints mode every answer that has headers can say what happened, whatever its body.
      if (settings.hints) context.headers['x-hint'] ??= headerText(hint);
      return event;
    },
    follow: (effect: FollowUp) => {
      const event = { kind: kind.kind, family: kind.family, tool: effect.tool, call: 0, recovery: scenario.recovery ?? kind.recovery, hint, retryable: false };
      followUps.add(context, effect, event);
    },
  };
}
