import { z } from 'zod';
import { ProblemSchema } from './problem.js';

// The error responses the route schemas declare. The server answers every error of its own in
// problem JSON (RFC 9457) under application/problem+json; only the execution hazards of a tool
// call answer in other servers' styles, and the tool routes say so.

/** One schema for every problem, referenced by the documents as #/components/schemas/Problem. */
export const Problem = ProblemSchema.meta({ id: 'Problem' });

const PROBLEM_MEDIA_TYPE = 'application/problem+json';

const problemResponse = (description: string) => ({ description, content: { [PROBLEM_MEDIA_TYPE]: { schema: Problem } } });

const CLIENT_ERROR =
  'A problem (RFC 9457) with a stable code: invalid input (naming each field), an unknown route or record, a missing or ' +
  'wrong bearer token (401), a Host that is not loopback nor in ALLOWED_HOSTS when no API_TOKEN is set (403 ' +
  'host_not_allowed), a request not sent whole in time (408), a body that is not JSON (415) or too large (413), a ' +
  'session another replica holds when several run behind a load balancer (421). A refused request changes nothing.';

const SERVER_ERROR =
  'A problem (RFC 9457): 503 when no session can be created (MAX_SESSIONS, with Retry-After) or a change could not be ' +
  'made durable (persistence_failed) or the saved data of a session is damaged (session_damaged); 500 for a bug of the server.';

/** The errors of every route but the tool calls. */
export const PROBLEMS = { '4XX': problemResponse(CLIENT_ERROR), '5XX': problemResponse(SERVER_ERROR) };

const ONLY_WHEN = (kinds: string) => `Only while the ${kinds} hazard strikes the call:`;
const FOREIGN = ONLY_WHEN('transient_failure, latency or unknown_outcome');

/** Another API's JSON error: `{"error": {...}}`, `{"message": ...}` with a request id; not problem JSON. */
const ForeignJson = z.object({}).catchall(z.unknown()).describe("Another server's JSON error, not problem JSON.");
const ForeignText = (what: string) => z.string().describe(`${FOREIGN} ${what}.`);

/**
 * The errors of a tool call: problem JSON for everything the server decides (including the
 * hazards that speak in the API's voice: outages, quotas, drifted parameters); the faults of the
 * execution hazards imitate real servers and gateways, and are declared as such.
 */
export const TOOL_PROBLEMS = {
  '4XX': problemResponse(
    `${CLIENT_ERROR} A broken rule of the domain answers 404, 409 or 422 with the reason in detail; a hazard speaking in ` +
      "the API's voice (a renamed parameter, a format rule, a missing idempotency key, a quota) answers the same way.",
  ),
  429: {
    description: `${ONLY_WHEN('transient_failure')} rate limited, in a rate limiter's own JSON style (not problem JSON) with Retry-After (seconds). Nothing ran: retry after it.`,
    content: { 'application/json': { schema: ForeignJson } },
  },
  '5XX': {
    description:
      `${SERVER_ERROR} An outage of the tool answers a 503 problem. ${FOREIGN} 500, 502, 503 or 504 in another server's ` +
      'style: an nginx HTML page, text/plain from a proxy, or JSON with a request id (the journal says whether a write ' +
      `committed). ${ONLY_WHEN('transport_fault or unknown_outcome')} no HTTP answer at all (a reset, an empty reply, a ` +
      'body cut short) or a 200 with malformed JSON, which no response here can describe.',
    content: {
      [PROBLEM_MEDIA_TYPE]: { schema: Problem },
      'application/json': { schema: ForeignJson.describe(`${FOREIGN} another server's JSON error, not problem JSON.`) },
      'text/html': { schema: ForeignText("a gateway's error page (nginx)") },
      'text/plain': { schema: ForeignText("a proxy's one-line error (envoy)") },
    },
  },
};
