import { z } from 'zod';
import type { ToolErrorEntry } from '../../domains/errors.js';
import { HAZARD_ERRORS } from '../../hazards/errors.js';
import { type CatalogEntry, entriesOf, statusesOf } from '../../lib/error-catalog.js';
import { SERVER_ERRORS } from './error-codes.js';
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
    description:
      `${ONLY_WHEN('transient_failure')} rate limited, in a rate limiter's own JSON style (not problem JSON) with Retry-After (seconds). Nothing ` +
      `ran: retry after it.`,
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

type JsonSchema = Record<string, unknown>;

/** A code and what it means, as the documents give it. */
const codeSchema = (entry: CatalogEntry): JsonSchema => ({ type: 'string', const: entry.code, description: entry.meaning });

const SHARED_GROUPS = {
  ServerErrorCode: {
    description: 'A code the server answers any tool call with: the arguments, the body, access, sessions, its own failures.',
    anyOf: entriesOf(SERVER_ERRORS).map(codeSchema),
  },
  HazardErrorCode: {
    description: "Only while a hazard strikes the call: a code it answers with in the API's voice.",
    anyOf: entriesOf(HAZARD_ERRORS).map(codeSchema),
  },
};

/** Marks a tool route with the codes its tool declares; the documents turn the mark into responses (withToolErrors). */
const TOOL_ERRORS_MARK = 'x-tool-errors';
export const toolErrorsMark = (errors: readonly ToolErrorEntry[]) => ({ [TOOL_ERRORS_MARK]: errors });

type Operation = Record<string, unknown> & { responses?: Record<string, unknown> };
type Document = { paths?: Record<string, unknown>; components?: { schemas?: Record<string, unknown> } };

/**
 * The document with a response per status of the codes each marked tool declares (domains/<domain>/errors.ts): a
 * problem whose `code` is one of them, or one of the groups every tool shares (listed once, as components).
 */
export function withToolErrors<D extends Document>(document: D): D {
  const paths: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const operations: Record<string, unknown> = {};
    for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
      const { [TOOL_ERRORS_MARK]: errors, ...rest } = operation;
      operations[method] = errors ? { ...rest, responses: { ...declaredResponses(errors as ToolErrorEntry[]), ...rest.responses } } : rest;
    }
    paths[path] = operations;
  }
  const components = { ...document.components, schemas: { ...document.components?.schemas, ...SHARED_GROUPS } };
  return { ...document, paths, components };
}

function declaredResponses(errors: readonly ToolErrorEntry[]): Record<string, unknown> {
  const byStatus = new Map<number, ToolErrorEntry[]>();
  for (const entry of errors) for (const status of statusesOf(entry)) byStatus.set(status, [...(byStatus.get(status) ?? []), entry]);
  const shared = Object.keys(SHARED_GROUPS).map((id) => ({ $ref: `#/components/schemas/${id}` }));
  const responses: Record<string, unknown> = {};
  for (const [status, entries] of [...byStatus.entries()].sort(([a], [b]) => a - b)) {
    const code = { anyOf: [...entries.map(codeSchema), ...shared] };
    responses[String(status)] = {
      description: `Refused with ${status}: ${entries.map((entry) => `${entry.code} (${entry.meaning})`).join('; ')}`,
      content: {
        [PROBLEM_MEDIA_TYPE]: { schema: { allOf: [{ $ref: '#/components/schemas/Problem' }, { type: 'object', properties: { code }, required: ['code'] }] } },
      },
    };
  }
  return responses;
}
