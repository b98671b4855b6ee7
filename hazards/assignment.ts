import { envWord } from '../lib/text.js';
import type { KindName } from './catalog.js';
import type { HazardDomain, HazardKind, ScenarioBase } from './kind.js';

/** One tool of one domain, as hazard settings name it. */
export interface ToolRef {
  domain: string;
  tool: string;
}

export const toolKey = (domain: string, tool: string) => `${domain}/${tool}`;

/**
 * Which scenario of which kind each tool has: the domains' declared scenarios, plus the
 * generic scenario of kinds that can strike any tool.
 */
export class Assignment {
  /** domain/tool → kind → declared scenario. */
  private readonly declared = new Map<string, Map<KindName, ScenarioBase>>();
  readonly tools: ToolRef[] = [];
  /** domain/tool of every tool that writes. */
  private readonly writes = new Set<string>();

  constructor(
    domains: readonly HazardDomain[],
    readonly kinds: ReadonlyMap<KindName, HazardKind>,
  ) {
    for (const domain of domains) {
      const names = new Set(domain.tools.map((tool) => tool.name));
      for (const name of names) this.tools.push({ domain: domain.name, tool: name });
      for (const tool of domain.tools) if (tool.mutates) this.writes.add(toolKey(domain.name, tool.name));
      for (const scenario of domain.hazards ?? []) {
        if (!names.has(scenario.tool)) throw new Error(`${domain.name} hazards: no tool ${scenario.tool}`);
        const key = toolKey(domain.name, scenario.tool);
        const byKind = this.declared.get(key) ?? new Map<KindName, ScenarioBase>();
        if (byKind.has(scenario.kind)) throw new Error(`${domain.name} hazards: two ${scenario.kind} scenarios for ${scenario.tool}`);
        byKind.set(scenario.kind, scenario);
        this.declared.set(key, byKind);
      }
    }
  }

  /** The declared scenario, or the kind's generic one, or none. */
  scenario(ref: ToolRef, kind: KindName): ScenarioBase | undefined {
    const declared = this.declared.get(toolKey(ref.domain, ref.tool))?.get(kind);
    if (declared) return declared;
    const hazard = this.kinds.get(kind);
    if (!hazard?.generic || (hazard.writesOnly && !this.writes.has(toolKey(ref.domain, ref.tool)))) return undefined;
    return { ...hazard.generic, kind, tool: ref.tool } as ScenarioBase;
  }

  /** True when the domain declares this kind for this tool ("assigned"). */
  assigned(ref: ToolRef, kind: KindName): boolean {
    return this.declared.get(toolKey(ref.domain, ref.tool))?.has(kind) ?? false;
  }

  /** Tools matching a name from settings: `tool` (in every domain that has it) or `domain__tool`. */
  resolve(name: string): ToolRef[] {
    const lower = name.toLowerCase();
    const split = lower.indexOf('__');
    if (split > 0) {
      const domain = lower.slice(0, split);
      const tool = lower.slice(split + 2);
      // The domain as it is named, or as environment variables spell it (upper case, `_` for `-`).
      return this.tools.filter((ref) => (ref.domain === domain || envWord(ref.domain).toLowerCase() === domain) && ref.tool === tool);
    }
    return this.tools.filter((ref) => ref.tool === lower);
  }
}
