import type { Domain } from '../../domains/domain.js';
import type { AnyTool } from '../../domains/tool.js';
import type { ToolContract } from '../../hazards/kind.js';
import { contractsOf } from './listings.js';
import type { Registry } from './registry.js';
import type { Session } from './sessions/session.js';
import type { HazardEngineApi } from '../../hazards/engine-api.js';
import { contractOf } from '../../hazards/contract.js';
import { SUBMIT_ANSWER } from './tasks/answer-tool.js';

/** The submit_answer tool a session lists for its task's current turn (a typed task's), with its domain. */
export type AnswerToolOf = (session: Session) => { domain: Domain; tool: AnyTool } | undefined;

/** Contracts with the session's submit_answer, when it has one, at the end. */
function withAnswer(contracts: readonly ToolContract[] | null, canonical: readonly ToolContract[], answer: AnyTool | undefined): ToolContract[] | null {
  if (!answer) return contracts as ToolContract[] | null;
  return [...(contracts ?? canonical), contractOf(answer)];
}

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
export function toolViews(registry: Registry, hazards: HazardEngineApi, answerTool: AnswerToolOf = () => undefined): ToolView[] {
  const byDomain = [...registry.domains.values()].map((domain) => domainView(registry, hazards, domain, answerTool));
  return [...byDomain, combinedView(registry, hazards, byDomain, answerTool)];
}

function domainView(registry: Registry, hazards: HazardEngineApi, domain: Domain, answerTool: AnswerToolOf): ToolView {
  const ownAnswer = (session: Session) => {
    const found = answerTool(session);
    return found?.domain === domain ? found : undefined;
  };
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
    changed: (session) => withAnswer(hazards.contracts(session, domain.name, canonical()), canonical(), ownAnswer(session)?.tool),
    resolve(name, session) {
      const entry = entries.get(name);
      if (entry) return entry;
      if (name === SUBMIT_ANSWER) return ownAnswer(session);
      const decoy = decoys.get(name);
      return decoy && hazards.decoyActive(session, domain.name, name) ? { domain, tool: decoy } : undefined;
    },
  };
}

/**
 * The combined view shows each domain's changed contracts under their combined names, decoys included: a
 * decoy is listed, and callable, exactly when its domain's view lists it (its combined name is its own
 * unless another tool or decoy has it, then `{domain}__{name}`, as for tools).
 */
function combinedView(registry: Registry, hazards: HazardEngineApi, domainViews: readonly ToolView[], answerTool: AnswerToolOf): ToolView {
  const entries = [...registry.combined.values()];
  const canonical = once(() => contractsOf(entries, 'combined'));
  const decoys = combinedDecoys(registry);
  /** Domain → name in the domain → combined name, for the tools the combined view shows from that domain. */
  const names = new Map<string, Map<string, string>>();
  for (const { domain, tool, combinedName } of entries) names.set(domain.name, (names.get(domain.name) ?? new Map()).set(tool.name, combinedName));
  for (const decoy of decoys.values()) names.set(decoy.domain.name, (names.get(decoy.domain.name) ?? new Map()).set(decoy.tool.name, decoy.combinedName));
  return {
    name: 'combined',
    prefix: '',
    get canonical() {
      return canonical();
    },
    changed(session) {
      const answer = answerTool(session)?.tool;
      const changed = domainViews.map((view) => ({ view, contracts: hazards.contracts(session, view.name, view.canonical) }));
      if (changed.every(({ contracts }) => contracts === null)) return withAnswer(null, canonical(), answer);
      // Domain by domain, in each domain's listed order: the canonical combined order, with each domain's decoys where it lists them.
      const contracts = changed.flatMap(({ view, contracts }) =>
        (contracts ?? view.canonical).flatMap((contract) => {
          const name = names.get(view.name)?.get(contract.name);
          return name === undefined ? [] : [{ ...contract, name }];
        }),
      );
      return withAnswer(contracts, canonical(), answer);
    },
    resolve(name, session) {
      const entry = registry.combined.get(name);
      if (entry) return entry;
      if (name === SUBMIT_ANSWER) return answerTool(session);
      const decoy = decoys.get(name);
      return decoy && hazards.decoyActive(session, decoy.domain.name, decoy.tool.name) ? decoy : undefined;
    },
  };
}

/** A lookalike scenario's decoy as the combined view names it. */
export interface CombinedDecoy {
  readonly domain: Domain;
  readonly tool: AnyTool;
  readonly combinedName: string;
}

/** Every domain's decoys by their combined names: their own, unless a tool or another decoy has it. */
export function combinedDecoys(registry: Registry): Map<string, CombinedDecoy> {
  const found: { domain: Domain; tool: AnyTool }[] = [];
  for (const domain of registry.domains.values()) {
    for (const scenario of domain.hazards ?? []) if (scenario.kind === 'lookalike') found.push({ domain, tool: scenario.decoy });
  }
  const count = new Map<string, number>();
  for (const { tool } of found) count.set(tool.name, (count.get(tool.name) ?? 0) + 1);
  const out = new Map<string, CombinedDecoy>();
  for (const { domain, tool } of found) {
    const clash = registry.combined.has(tool.name) || count.get(tool.name)! > 1;
    const combinedName = clash ? `${domain.name}__${tool.name}` : tool.name;
    out.set(combinedName, { domain, tool, combinedName });
  }
  return out;
}
