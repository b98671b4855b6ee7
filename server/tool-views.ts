import type { Domain } from '../domains/domain.js';
import type { AnyTool } from '../domains/tool.js';
import type { ToolContract } from '../hazards/kind.js';
import { contractsOf } from './listings.js';
import type { Registry } from './registry.js';
import type { Session } from './sessions/session.js';
import type { HazardRuntime } from '../hazards/runtime.js';

/** A set of tools as one API shows them: one domain's, or every domain's under their combined names. */
export interface ToolView {
  /** The domain's name, or `combined`. */
  readonly name: string;
  /** Where the view's routes live: `/{domain}`, or `` for the combined view. */
  readonly prefix: string;
  /** The contracts as declared. */
  readonly canonical: readonly ToolContract[];
  /** The contracts as this session's listings show them (drift, rules, decoys), or null when unchanged. */
  changed(session: Session): ToolContract[] | null;
  /** The tool an agent calls by this name in this session: listed tools, and a decoy only while it is listed. */
  resolve(name: string, session: Session): { domain: Domain; tool: AnyTool } | undefined;
}

/** A value made on first use (the tools' JSON Schemas are a tenth of a cold start, and a server may never list them). */
function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

/** Every view the server offers: one per domain, then the combined one. */
export function toolViews(registry: Registry, hazards: HazardRuntime): ToolView[] {
  const byDomain = [...registry.domains.values()].map((domain) => domainView(registry, hazards, domain));
  return [...byDomain, combinedView(registry, byDomain)];
}

function domainView(registry: Registry, hazards: HazardRuntime, domain: Domain): ToolView {
  const entries = registry.byDomain.get(domain.name)!;
  const decoys = new Map<string, AnyTool>();
  for (const scenario of domain.hazards ?? []) if (scenario.kind === 'lookalike') decoys.set(scenario.decoy.name, scenario.decoy);
  const canonical = once(() => contractsOf([...entries.values()], 'domain'));
  return {
    name: domain.name,
    prefix: `/${domain.name}`,
    get canonical() {
      return canonical();
    },
    changed: (session) => hazards.contracts(session, domain.name, canonical()),
    resolve(name, session) {
      const entry = entries.get(name);
      if (entry) return entry;
      const decoy = decoys.get(name);
      return decoy && hazards.decoyActive(session, domain.name, name) ? { domain, tool: decoy } : undefined;
    },
  };
}

/** The combined view shows each domain's changed contracts under their combined names; decoys have no place there. */
function combinedView(registry: Registry, domainViews: readonly ToolView[]): ToolView {
  const entries = [...registry.combined.values()];
  const canonical = once(() => contractsOf(entries, 'combined'));
  return {
    name: 'combined',
    prefix: '',
    get canonical() {
      return canonical();
    },
    changed(session) {
      const changed = new Map<string, Map<string, ToolContract>>();
      for (const view of domainViews) {
        const contracts = view.changed(session);
        if (contracts) changed.set(view.name, new Map(contracts.map((contract) => [contract.name, contract])));
      }
      if (changed.size === 0) return null;
      return entries.map(({ domain, tool, combinedName }, i) => {
        const contract = changed.get(domain.name)?.get(tool.name);
        return contract ? { ...contract, name: combinedName } : canonical()[i]!;
      });
    },
    resolve: (name) => registry.combined.get(name),
  };
}
