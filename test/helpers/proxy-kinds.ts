import type { ProxyRule } from '../../server/proxy/config.js';
import type { HazardEvent, JournalEntry, Obj } from './hazards.js';
import type { Proxied } from './proxy.js';
import type { Reply, TestServer } from './server.js';

// What the tests of each hazard kind on a proxied upstream (test/server/proxy/kinds-*.test.ts) share: the
// rules of the rule kinds, the session settings that switch one kind on, and readings of the journal.

/** A proxied call as the journal records it. */
export interface ProxyEntry extends JournalEntry {
  proxy: { method: string; path: string; upstream_status?: number };
}

/** The reason the feature_limit rule gives, naming the workaround. */
export const LIMIT_MESSAGE = 'Your plan returns at most 20 contacts a page: ask for limit=20 or fewer and follow next_cursor.';

/** The rules of the three kinds that need knowledge of the API, one each. */
export const RULES: ProxyRule[] = [
  {
    kind: 'adhoc_rule',
    operation: 'get_contact',
    param: 'id',
    pattern: '^\\d{3}$',
    rewrite: 'c_$&',
    rule: 'Contact ids are sent without the c_ prefix (003 for c_003).',
    message: "id: three digits, without the 'c_' prefix",
  },
  {
    kind: 'feature_limit',
    operation: 'list_contacts',
    param: 'limit',
    max: 20,
    message: LIMIT_MESSAGE,
    status: 422,
  },
  // The CRM has no read of one deal: closing one answers the deal, and is the source the policy trusts.
  { kind: 'conflict', operation: 'list_deals', field: 'amount', authority: 'close_deal' },
];

/** A session's hazard settings switching `kind` to `setting` on one operation of the proxy crm. */
export const onTool = (operation: string, kind: string, setting: 'on' | 'off' | number = 'on', extra: Obj = {}) => ({
  hazards: { tools: { [`crm__${operation}`]: { [kind]: setting } }, ...extra },
});

/** A contact the CRM does not have yet. */
export const NEW_CONTACT = { name: 'Quentin Blake', email: 'quentin.blake@acme.example', company: 'Acme Logistics', phone: '+1-555-0199' };

export const journalOf = (server: TestServer, session: string) => server.journal<ProxyEntry>(session);

/** Every hazard event of a session, in journal order. */
export const eventsOf = async (server: TestServer, session: string): Promise<HazardEvent[]> => (await journalOf(server, session)).flatMap((e) => e.hazards);

/** The numbers (counting from 1) of a session's calls that carry a hazard event. */
export const hitPattern = async (server: TestServer, session: string): Promise<number[]> =>
  (await journalOf(server, session)).flatMap((entry, i) => (entry.hazards.length > 0 ? [i + 1] : []));

/**
 * A server error, a rate limit, a failed connection (status 0) or a 200 whose JSON is broken: what a
 * retryable fault looks like.
 */
export const failed = (reply: Reply) =>
  reply.status === 0 || reply.status >= 500 || reply.status === 429 || (/json/.test(String(reply.headers['content-type'])) && typeof reply.body === 'string');

/**
 * startProxied's options that keep latency waits off the wall clock: the test server's no-op sleep is
 * used when hazard variables are given (none here), not by the runtime buildApp makes on its own.
 */
export const NO_SLEEP = { hazardEnv: {} };

/** Status and body: what "the same answer" means (the CRM's request ids and dates differ by nature). */
export const answer = (reply: Reply) => ({ status: reply.status, body: reply.body });

/** Calls `path` through the proxy `n` times in `session` (connection faults as status 0). */
export async function repeat(p: Proxied, n: number, path: string, session: string): Promise<Reply<any>[]> {
  const replies: Reply<any>[] = [];
  for (let i = 0; i < n; i++) replies.push(await p.attempt('GET', path, undefined, { session }));
  return replies;
}

/** What each drift makes of an answer, by the change the journal names. */
export const DRIFTED: Record<string, (answer: unknown) => unknown> = {
  'the answer is wrapped in a data envelope': (answer) => ({ data: answer, meta: { api_version: '2024-06-01' } }),
  'field names are in camelCase': (answer) => deep(answer, (key, value) => [key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()), value]),
  'numbers are sent as strings': (answer) =>
    deep(answer, (key, value) => [key, typeof value === 'number' ? (Number.isInteger(value) ? String(value) : value.toFixed(2)) : value]),
};

function deep(value: unknown, each: (key: string, value: unknown) => [string, unknown]): unknown {
  if (Array.isArray(value)) return value.map((item) => deep(item, each));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => each(key, typeof item === 'object' ? deep(item, each) : item)));
}
