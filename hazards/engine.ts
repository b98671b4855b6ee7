import { Assignment, type ToolRef, toolKey } from './assignment.js';
import { contractOf } from './contract.js';
import { HazardFault } from './fault.js';
import { FollowUps } from './follow-ups.js';
import { hazardCall } from './hazard-call.js';
import { familyOf, KINDS, type KindName } from './catalog.js';
import { HazardConfigError, type Layer, layerFromSpec } from './config.js';
import type { CallContext, HazardSession as Session } from './call-context.js';
import type { HazardEngineApi, MatrixCell, Settings } from './engine-api.js';
import type { HazardCall, HazardDomain, HazardKind, HazardTool, ScenarioBase, ToolContract } from './kind.js';
import { hazardKinds } from './kinds/index.js';
import { draw } from './schedule.js';

const DEFAULTS: Settings = { hints: false, maxConsecutive: 2, latencyMs: 1500 };

interface Active {
  kind: HazardKind;
  scenario: ScenarioBase;
  p: number;
  /** The tool whose draws decide it (for a decoy, the canonical tool). */
  drawKey: string;
}

/** What one session's settings make of every tool, rebuilt when the settings change. */
interface Plan {
  version: number;
  seed: string;
  settings: Settings;
  /** domain/tool → active hazards, in stage order. */
  byTool: Map<string, Active[]>;
  /** Domains whose listing differs from the canonical one for this session. */
  listing: Set<string>;
  activation: Map<Active, boolean>;
  /** domain/tool → the hazards that take a tool down and name this one as its fallback. */
  fallbackFor: Map<string, Active[]>;
}

export interface HazardEngineOptions {
  domains: readonly HazardDomain[];
  kinds?: readonly HazardKind[];
  /** How the latency hazard waits; tests pass their own. */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * The hazard engine: decides, from the layered settings and the seeded schedule, which hazards
 * strike which call, and applies their stages. Nothing is drawn for a call no setting reaches.
 */
export class HazardEngine implements HazardEngineApi {
  private currentAssignment: Assignment;
  readonly kinds: ReadonlyMap<KindName, HazardKind>;
  private readonly sleep: (ms: number) => Promise<void>;
  /** The environment's layer and the config file's, in that order. */
  private base: readonly Layer[] = [];
  private runtime: Layer | undefined;
  private version = 0;
  private readonly plans = new WeakMap<Session, Plan>();
  private readonly sessionLayers = new WeakMap<Session, Layer>();
  private readonly followUps = new FollowUps();
  /** Per call: the kind that ends it, once decided. */
  private readonly strikes = new WeakMap<CallContext, Active | undefined>();
  private readonly decoyTools = new Map<string, { scenario: ScenarioBase & { decoy: HazardTool }; domain: string }>();

  constructor(private readonly options: HazardEngineOptions) {
    this.kinds = new Map((options.kinds ?? hazardKinds).map((kind) => [kind.kind, kind]));
    const missing = KINDS.filter((kind) => !this.kinds.has(kind));
    if (missing.length > 0) throw new Error(`hazard kinds without an implementation: ${missing.join(', ')}`);
    this.currentAssignment = new Assignment(options.domains, this.kinds);
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    for (const domain of options.domains) {
      for (const scenario of domain.hazards ?? []) {
        const decoy = (scenario as { decoy?: HazardTool }).decoy;
        if (decoy) this.decoyTools.set(toolKey(domain.name, decoy.name), { scenario: scenario as ScenarioBase & { decoy: HazardTool }, domain: domain.name });
      }
    }
  }

  /** Which scenario each tool of every domain (built-in and attached) has. */
  get assignment(): Assignment {
    return this.currentAssignment;
  }

  /**
   * Replaces the domains served besides the built-in ones (each proxied upstream is one): their tools are
   * then named by settings and drawn like any other. A name clash with a built-in domain is an error.
   */
  attach(domains: readonly HazardDomain[]): void {
    const builtIn = new Set(this.options.domains.map((domain) => domain.name));
    const clash = domains.find((domain) => builtIn.has(domain.name));
    if (clash) throw new HazardConfigError(`${clash.name}: the name of a built-in domain`);
    this.currentAssignment = new Assignment([...this.options.domains, ...domains], this.kinds);
    this.version += 1;
  }

  /** Sets the settings of the environment and the config file (at startup). */
  setBaseLayers(layers: readonly Layer[]): void {
    this.base = layers;
    this.version += 1;
  }

  /** Replaces the runtime settings (PUT /admin/hazards); undefined clears them. */
  setRuntime(spec: unknown): void {
    this.runtime = spec === undefined ? undefined : layerFromSpec(spec, this.assignment, 'PUT /admin/hazards');
    this.version += 1;
  }

  /** Checks a session's hazard settings; throws HazardConfigError naming the bad word. */
  check(spec: unknown): void {
    layerFromSpec(spec, this.assignment, 'hazards');
  }

  decoyActive(session: Session, domain: string, name: string): boolean {
    return this.plan(session).byTool.has(toolKey(domain, name)) && this.decoyTools.has(toolKey(domain, name));
  }

  /** A token that stays the same object while the session's hazard plan is unchanged (its settings, every layer's). */
  revision(session: Session): object {
    return this.plan(session);
  }

  /** Whether a hazard with an after-call stage is on for this tool in the session: its answers may then differ from the declared output. */
  reshapes(session: Session, domain: string, tool: string): boolean {
    return (this.plan(session).byTool.get(toolKey(domain, tool)) ?? []).some((hazard) => hazard.kind.after !== undefined);
  }

  settings(session: Session): Settings {
    return this.plan(session).settings;
  }

  /** The effective matrix for a session: every assigned cell, and any other cell switched on. */
  matrix(session: Session): MatrixCell[] {
    const layers = this.layers(session);
    const cells: MatrixCell[] = [];
    for (const ref of this.assignment.tools) {
      for (const kind of KINDS) {
        if (!this.assignment.scenario(ref, kind)) continue;
        const assigned = this.assignment.assigned(ref, kind);
        const { p, source } = this.probability(ref, kind, layers);
        if (assigned || p > 0) cells.push({ domain: ref.domain, tool: ref.tool, kind, family: familyOf(kind), probability: p, source, assigned });
      }
    }
    return cells;
  }

  before(context: CallContext): void | HazardFault | Promise<void> {
    const plan = this.plan(context.session);
    if (plan.byTool.size === 0) return;
    const active = plan.byTool.get(toolKey(context.domain, context.tool.name));
    if (active) return this.runBefore(active, 0, context);
  }

  after(context: CallContext, result: unknown): unknown {
    const plan = this.plan(context.session);
    const followed = this.followUps.apply(context, result, plan.settings.hints);
    if (plan.byTool.size === 0) return followed;
    const active = plan.byTool.get(toolKey(context.domain, context.tool.name));
    if (!active) return followed;
    // The fallback the policy names for a tool that is down is the agent's only source: nothing reshapes its answers.
    const spared = this.spared(plan, context.session, toolKey(context.domain, context.tool.name));
    let current = followed;
    for (const hazard of active) {
      if (!hazard.kind.after || (spared && !hazard.kind.endsCall) || !this.hits(hazard, context)) continue;
      current = hazard.kind.after(this.call(hazard, context), current);
    }
    return current;
  }

  /** The tools of a domain as this session's listings show them, or null when unchanged. */
  contracts(session: Session, domain: string, canonical: readonly ToolContract[]): ToolContract[] | null {
    const plan = this.plan(session);
    if (!plan.listing.has(domain)) return null;
    const out: ToolContract[] = [];
    for (const base of canonical) {
      let contract = base;
      for (const hazard of plan.byTool.get(toolKey(domain, base.name)) ?? []) {
        if (!hazard.kind.contract || hazard.drawKey !== toolKey(domain, base.name)) continue;
        if (!this.active(plan, session, hazard) || (hazard.kind.after && this.spared(plan, session, hazard.drawKey))) continue;
        contract = hazard.kind.contract(contract, {
          scenario: hazard.scenario,
          onset: onsetOf(hazard),
          calls: session.callCount(domain, base.name),
          hints: plan.settings.hints,
          hint: hazard.kind.hint(hazard.scenario),
        });
      }
      out.push(contract);
    }
    // A decoy takes a place drawn from the seed, not always the one after its real tool (an order a model could learn).
    for (const [key, decoy] of this.decoyTools) {
      if (decoy.domain !== domain || !plan.byTool.has(key)) continue;
      const at = Math.floor(draw(plan.seed, session.scope, key, DECOY_PLACE_DRAW, 0) * (out.length + 1));
      out.splice(at, 0, { ...contractOf(decoy.scenario.decoy), deprecated: true });
    }
    return out;
  }

  private runBefore(active: readonly Active[], from: number, context: CallContext): void | HazardFault | Promise<void> {
    for (let i = from; i < active.length; i++) {
      const hazard = active[i]!;
      if (!hazard.kind.before || !this.hits(hazard, context)) continue;
      const outcome = hazard.kind.before(this.call(hazard, context));
      if (outcome instanceof HazardFault) return outcome;
      if (outcome) return outcome.then(() => this.runBefore(active, i + 1, context)).then(rejectFault);
    }
  }

  /** Whether this call is hit: drawn per call, or per session from the onset on; of the kinds that end a call, only the one picked. */
  private hits(hazard: Active, context: CallContext): boolean {
    if (hazard.kind.endsCall) return this.striking(context) === hazard;
    return this.drawn(hazard, context);
  }

  private drawn(hazard: Active, context: CallContext): boolean {
    const plan = this.plan(context.session);
    if (hazard.kind.scope === 'session') return context.call >= onsetOf(hazard) && this.active(plan, context.session, hazard);
    if (draw(plan.seed, context.session.scope, hazard.drawKey, hazard.kind.kind, context.call) >= hazard.p) return false;
    return !hazard.kind.retryable || context.session.faultStreak(context.domain, context.tool.name) < plan.settings.maxConsecutive;
  }

  /**
   * The kind that ends this call, if any: each such kind is drawn on its own, and when several are hit, a
   * seeded draw weighted by their probabilities picks one (decided once per call, for both stages).
   */
  private striking(context: CallContext): Active | undefined {
    if (this.strikes.has(context)) return this.strikes.get(context);
    const plan = this.plan(context.session);
    const key = toolKey(context.domain, context.tool.name);
    const hit = (plan.byTool.get(key) ?? []).filter((hazard) => hazard.kind.endsCall && this.drawn(hazard, context));
    let chosen = hit[0];
    if (hit.length > 1) {
      const point = draw(plan.seed, context.session.scope, key, STRIKE_DRAW, context.call) * hit.reduce((sum, hazard) => sum + hazard.p, 0);
      let reached = 0;
      chosen = hit.find((hazard) => {
        reached += hazard.p;
        return point < reached;
      });
    }
    this.strikes.set(context, chosen);
    return chosen;
  }

  /** Whether a session-wide hazard is on in this session: drawn once, remembered by the plan. */
  private active(plan: Plan, session: Session, hazard: Active): boolean {
    let on = plan.activation.get(hazard);
    if (on === undefined) {
      on = draw(plan.seed, session.scope, hazard.drawKey, hazard.kind.kind, 0) < hazard.p;
      plan.activation.set(hazard, on);
    }
    return on;
  }

  private call(hazard: Active, context: CallContext): HazardCall<ScenarioBase> {
    const plan = this.plan(context.session);
    return hazardCall(hazard, context, {
      seed: plan.seed,
      settings: plan.settings,
      sleep: this.sleep,
      followUps: this.followUps,
      unavailable: (tool) => this.down(plan, context.session, toolKey(context.domain, tool)),
    });
  }

  /** Whether this tool is the named fallback of a tool that is down in the session. */
  private spared(plan: Plan, session: Session, key: string): boolean {
    return (plan.fallbackFor.get(key) ?? []).some((outage) => this.active(plan, session, outage));
  }

  /** Whether a kind that takes a tool down is on for it in the session. */
  private down(plan: Plan, session: Session, key: string): boolean {
    return (plan.byTool.get(key) ?? []).some((hazard) => hazard.kind.takesDown === true && this.active(plan, session, hazard));
  }

  private layers(session: Session): Layer[] {
    const layers = [...this.base];
    if (this.runtime) layers.push(this.runtime);
    const own = this.sessionLayer(session);
    if (own) layers.push(own);
    return layers;
  }

  private sessionLayer(session: Session): Layer | undefined {
    const spec = session.options.hazards;
    if (spec === undefined) return undefined;
    let layer = this.sessionLayers.get(session);
    if (!layer) {
      layer = layerFromSpec(spec, this.assignment, `session ${session.id}`);
      this.sessionLayers.set(session, layer);
    }
    return layer;
  }

  private probability(ref: ToolRef, kind: KindName, layers: readonly Layer[]): { p: number; source: string } {
    let p = 0;
    let source = 'default (off)';
    for (const layer of layers) {
      for (const rule of layer.rules) {
        if (!rule.kinds.includes(kind)) continue;
        const applies =
          rule.tools === 'assigned' ? this.assignment.assigned(ref, kind) : rule.tools.some((t) => t.domain === ref.domain && t.tool === ref.tool);
        if (applies) ({ p, source } = rule);
      }
    }
    return { p, source };
  }

  private plan(session: Session): Plan {
    const cached = this.plans.get(session);
    if (cached && cached.version === this.version) return cached;
    const layers = this.layers(session);
    const settings = { ...DEFAULTS };
    for (const layer of layers) {
      if (layer.hints !== undefined) settings.hints = layer.hints;
      if (layer.maxConsecutive !== undefined) settings.maxConsecutive = layer.maxConsecutive;
      if (layer.latencyMs !== undefined) settings.latencyMs = layer.latencyMs;
    }
    const plan: Plan = {
      version: this.version,
      seed: session.seed,
      settings,
      byTool: new Map(),
      listing: new Set(),
      activation: new Map(),
      fallbackFor: new Map(),
    };
    for (const ref of this.assignment.tools) {
      const key = toolKey(ref.domain, ref.tool);
      for (const kindName of KINDS) {
        const scenario = this.assignment.scenario(ref, kindName);
        if (!scenario) continue;
        const { p } = this.probability(ref, kindName, layers);
        if (p <= 0) continue;
        const kind = this.kinds.get(kindName)!;
        const hazard: Active = { kind, scenario, p, drawKey: key };
        plan.byTool.set(key, [...(plan.byTool.get(key) ?? []), hazard]);
        const decoy = (scenario as { decoy?: HazardTool }).decoy;
        if (kind.contract || decoy) plan.listing.add(ref.domain);
        const fallback = (scenario as { fallback?: string }).fallback;
        if (kind.takesDown && fallback) {
          const fallbackKey = toolKey(ref.domain, fallback);
          plan.fallbackFor.set(fallbackKey, [...(plan.fallbackFor.get(fallbackKey) ?? []), hazard]);
        }
        if (decoy && this.active(plan, session, hazard)) plan.byTool.set(toolKey(ref.domain, decoy.name), [hazard]);
      }
    }
    this.plans.set(session, plan);
    return plan;
  }
}

/** After a wait, a later stage's fault rejects the promise, as a waiting stage's own does. */
function rejectFault(outcome: void | HazardFault | Promise<void>): void | Promise<void> {
  if (outcome instanceof HazardFault) throw outcome;
  return outcome;
}

/** The draw that picks among the kinds hitting one call (not a kind's name, so never the same draw as one). */
const STRIKE_DRAW = '#strike';
/** The draw that places a decoy among its domain's tools in listings. */
const DECOY_PLACE_DRAW = '#place';

const onsetOf = (hazard: Active) => hazard.scenario.onset ?? hazard.kind.onset ?? 1;
