import { domains } from '../../domains/index.js';
import type { TestServer } from './server.js';

/** The hazard kinds that change a session's contracts: renamed and required parameters, rules, trimmed docs, decoys. */
export const CONTRACT_HAZARDS = { HAZARDS: 'spec_drift,invocation_error,lookalike,adhoc_rule,ambiguous_doc,output_drift' };

/** Every listing route: each domain's, and the combined view's. */
export const LISTING_PATHS = [...domains.map((domain) => `/${domain.name}/tools`), '/tools'];

/**
 * A session whose hazards changed its contracts: every tool called once, so that those that change
 * from the next call on (spec drift) show their changed contract.
 */
export async function changedSession(server: TestServer): Promise<string> {
  const session = await server.newSession();
  for (const domain of domains) for (const tool of domain.tools) await server.call(domain.name, tool.name, {}, session);
  return session;
}
