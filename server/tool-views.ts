import type { Domain } from '../domains/domain.js';
import type { AnyTool } from '../domains/tool.js';
import type { ToolContract } from '../hazards/kind.js';
import { contractsOf } from './listings.js';
import type { Registry } from './registry.js';
import type { Session } from './sessions/session.js';
import type { HazardRuntime } from '../hazards/runtime.js';
import { contractOf } from '../hazards/contract.js';
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
export function toolViews(registry: Registry, hazards: HazardRuntime, answerTool: AnswerToolOf = () => undefined): ToolView[] {
  const byDomain = [...registry.domains.values()].map((domain) => domainView(registry, hazards, domain, answerTool));
  return [...byDomain, combinedView(registry, byDomain, answerTool)];
}

function domainView(registry: Registry, hazards: HazardRuntime, domain: Domain, answerTool: AnswerToolOf): ToolView {
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

/** The combined view shows each domain's changed contracts under their combined names; decoys have no place there. */
function combinedView(registry: Registry, domainViews: readonly ToolView[], answerTool: AnswerToolOf): ToolView {
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
      const answer = answerTool(session)?.tool;
      if (changed.size === 0) return withAnswer(null, canonical(), answer);
      const contracts = entries.map(({ domain, tool, combinedName }, i) => {
        const contract = changed.get(domain.name)?.get(tool.name);
        return contract ? { ...contract, name: combinedName } : canonical()[i]!;
      });
      return withAnswer(contracts, canonical(), answer);
    },
    resolve: (name, session) => registry.combined.get(name) ?? (name === SUBMIT_ANSWER ? answerTool(session) : undefined),
  };
}
