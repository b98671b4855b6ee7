import { isObject } from '../lib/object.js';
import { Random } from '../lib/random.js';
import { headerText } from '../lib/text.js';
import type { CallContext } from './call-context.js';
import type { HazardEvent } from './event.js';
import type { FollowUps } from './follow-ups.js';
import type { FollowUp, HazardCall, HazardKind, ResultHook, ScenarioBase } from './kind.js';
import { hitSeed } from './schedule.js';
import type { Table } from '../lib/table.js';

/** What the engine holds for one call of a hazard: its session's seed and settings, and its shared services. */
export interface CallEnvironment {
  seed: string;
  settings: { hints: boolean; latencyMs: number };
  sleep: (ms: number) => Promise<void>;
  followUps: FollowUps;
  /** Whether a tool of the call's domain is down for the session. */
  unavailable(tool: string): boolean;
}

type Disturbing = { kind: HazardKind; scenario: ScenarioBase; drawKey: string };

/** What a kind's stage receives for one call: the scenario, seeded draws, the hook argument, the journal. */
export function hazardCall(hazard: Disturbing, context: CallContext, environment: CallEnvironment): HazardCall<ScenarioBase> {
  return new OneHazardCall(hazard, context, environment);
}

// A class rather than an object literal: a hit is on the hot path of every hazard, and a literal with
// getters and closures is built property by property on each call, where a class shares its prototype.
class OneHazardCall implements HazardCall<ScenarioBase> {
  readonly scenario: ScenarioBase;
  readonly hints: boolean;
  readonly hint: string;
  readonly settings: { latencyMs: number };
  readonly sleep: (ms: number) => Promise<void>;
  /** Read when a stage asks for it: most stages never touch the database (and a proxied upstream has none). */
  private tables: Record<string, Table<unknown>> | undefined;
  /** Made when a stage first draws: many stages never do, and seeding costs a hash. */
  private drawn: Random | undefined;

  constructor(
    private readonly hazard: Disturbing,
    readonly context: CallContext,
    private readonly environment: CallEnvironment,
  ) {
    this.scenario = hazard.scenario;
    this.hints = environment.settings.hints;
    this.hint = hazard.kind.hint(hazard.scenario);
    this.settings = environment.settings;
    this.sleep = environment.sleep;
  }

  unavailable(tool: string): boolean {
    return this.environment.unavailable(tool);
  }

  get db(): Record<string, Table<unknown>> {
    this.tables ??= this.context.session.domain(this.context.domain).tables;
    return this.tables;
  }

  get random(): Random {
    this.drawn ??= this.randomOf(this.context.call);
    return this.drawn;
  }

  hook(result?: unknown): ResultHook {
    const call = this;
    const { context } = this;
    return {
      args: isObject(context.args) ? context.args : {},
      get db() {
        return call.db;
      },
      get random() {
        return call.random;
      },
      // Call number 0 is never a call: its draws are the session's, the same on every call. Made when read.
      get sessionRandom() {
        return call.randomOf(0);
      },
      now: new Date(context.at),
      call: context.call,
      result,
    };
  }

  header(name: string, value: string): void {
    this.context.headers[name] = headerText(value);
  }

  record(details: Record<string, unknown> = {}): HazardEvent {
    const { kind, scenario } = this.hazard;
    const { context } = this;
    const event: HazardEvent = {
      kind: kind.kind,
      family: kind.family,
      tool: context.tool.name,
      call: context.call,
      recovery: scenario.recovery ?? kind.recovery,
      hint: this.hint,
      retryable: kind.retryable,
      ...details,
    };
    context.events.push(event);
    // In hints mode every answer that has headers can say what happened, whatever its body.
    if (this.hints) context.headers['x-hint'] ??= headerText(this.hint);
    return event;
  }

  follow(effect: FollowUp): void {
    const { kind, scenario } = this.hazard;
    const event = {
      kind: kind.kind,
      family: kind.family,
      tool: effect.tool,
      call: 0,
      recovery: scenario.recovery ?? kind.recovery,
      hint: this.hint,
      retryable: false,
    };
    this.environment.followUps.add(this.context, effect, event);
  }

  private randomOf(call: number): Random {
    return new Random(hitSeed(this.environment.seed, this.context.session.scope, this.hazard.drawKey, this.hazard.kind.kind, call));
  }
}
