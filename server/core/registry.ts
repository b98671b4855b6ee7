import type { Domain } from '../../domains/domain.js';
import type { AnyTool } from '../../domains/tool.js';

export interface ToolEntry {
  readonly domain: Domain;
  readonly tool: AnyTool;
  /** The name in the combined view of all domains (see `combinedNames`). */
  readonly combinedName: string;
}

/** Every domain and tool the server hosts, indexed for routing. */
export class Registry {
  readonly domains: ReadonlyMap<string, Domain>;
  /** Domain name → tool name → entry. */
  readonly byDomain: ReadonlyMap<string, ReadonlyMap<string, ToolEntry>>;
  /** Combined name → entry. */
  readonly combined: ReadonlyMap<string, ToolEntry>;

  constructor(domains: readonly Domain[]) {
    this.domains = new Map(domains.map((domain) => [domain.name, domain]));
    const names = combinedNames(domains);
    const byDomain = new Map<string, Map<string, ToolEntry>>();
    const combined = new Map<string, ToolEntry>();
    for (const domain of domains) {
      const entries = new Map<string, ToolEntry>();
      for (const tool of domain.tools) {
        if (entries.has(tool.name)) throw new Error(`${domain.name} lists ${tool.name} twice`);
        const entry = { domain, tool, combinedName: names.get(tool)!.get(domain.name)! };
        entries.set(tool.name, entry);
        if (!combined.has(entry.combinedName)) combined.set(entry.combinedName, entry);
      }
      byDomain.set(domain.name, entries);
    }
    this.byDomain = byDomain;
    this.combined = combined;
  }

  entries(domain: string): ToolEntry[] {
    return [...(this.byDomain.get(domain)?.values() ?? [])];
  }
}

/**
 * Names in the combined view. A tool keeps its name when no other tool has it; one tool
 * listed by several domains (a shared utility) is one tool there. Different tools that share
 * a name are qualified by their domain: `retail__get_user_details`, `airline__get_user_details`.
 */
export function combinedNames(domains: readonly Domain[]): Map<AnyTool, Map<string, string>> {
  const toolsByName = new Map<string, Set<AnyTool>>();
  for (const domain of domains) {
    for (const tool of domain.tools) {
      const set = toolsByName.get(tool.name) ?? new Set();
      set.add(tool);
      toolsByName.set(tool.name, set);
    }
  }
  const result = new Map<AnyTool, Map<string, string>>();
  for (const domain of domains) {
    for (const tool of domain.tools) {
      const clash = toolsByName.get(tool.name)!.size > 1;
      const perDomain = result.get(tool) ?? new Map<string, string>();
      perDomain.set(domain.name, clash ? `${domain.name}__${tool.name}` : tool.name);
      result.set(tool, perDomain);
    }
  }
  return result;
}
