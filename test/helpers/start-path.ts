import { domains } from '../../domains/index.js';

/**
 * The line a server logs (at info) when it took the fast start: the bundle compiled from its V8 code cache, and
 * every embedded database from its prepared copy (server/code-path.ts).
 */
export const STARTED_FAST = new RegExp(
  `"msg":"started from the bundle \\(code cache taken\\); databases: ${domains.map((domain) => `${domain.name} prepared`).join(', ')}"`,
);
