import type { HazardCall, ScenarioBase } from './kind.js';
import { type ForeignAnswer, HazardFault } from './fault.js';
import { jsonText } from '../lib/json-text.js';
import { PROBLEM_CONTENT_TYPE, type Problem, problem } from '../lib/problem.js';
import { headerText } from '../lib/text.js';
import type { HAZARD_ERRORS } from './errors.js';
import { isObject } from '../lib/object.js';

// Failure responses in the styles real servers and gateways answer with. Ids come from the
// call's seeded generator, so the same schedule gives the same bodies.

const hex = (call: HazardCall<ScenarioBase>, length: number) => Array.from({ length }, () => call.random.int(0, 15).toString(16)).join('');

const uuid = (call: HazardCall<ScenarioBase>) => `${hex(call, 8)}-${hex(call, 4)}-4${hex(call, 3)}-a${hex(call, 3)}-${hex(call, 12)}`;

const html = (status: number, text: string) =>
  `<html>\r\n<head><title>${status} ${text}</title></head>\r\n<body>\r\n<center><h1>${status} ${text}` +
  `</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;

type Template = (call: HazardCall<ScenarioBase>) => ForeignAnswer;

const SERVER_ERRORS: Template[] = [
  () => ({ type: 'http', status: 502, contentType: 'text/html', body: html(502, 'Bad Gateway') }),
  (call) => ({
    type: 'http',
    status: 500,
    contentType: 'application/json',
    body: JSON.stringify({
      error: { code: 'INTERNAL', message: 'An internal error occurred. Please retry your request.', request_id: `req_${hex(call, 24)}` },
    }),
  }),
  (call) => ({
    type: 'http',
    status: 503,
    contentType: 'application/json; charset=UTF-8',
    body: JSON.stringify({ error: { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' } }),
    headers: { 'x-request-id': uuid(call) },
  }),
  (call) => ({
    type: 'http',
    status: 500,
    contentType: 'application/json',
    body: '{"message":"Internal server error"}',
    headers: { 'x-amzn-requestid': uuid(call) },
  }),
  (call) => ({
    type: 'http',
    status: 503,
    contentType: 'text/plain',
    body: 'upstream connect error or disconnect/reset before headers. reset reason: connection failure',
    headers: { 'x-envoy-upstream-service-time': String(call.random.int(1, 40)) },
  }),
  (call) => ({
    type: 'http',
    status: 500,
    contentType: 'application/json',
    body: JSON.stringify({
      status: 'error',
      error: `E${call.random.int(1000, 9999)}: unexpected condition in shard ${call.random.int(1, 64)}`,
      trace_id: hex(call, 32),
    }),
  }),
];

const RATE_LIMITED: Template = (call) => {
  const seconds = call.random.int(1, 3);
  return {
    type: 'http',
    status: 429,
    contentType: 'application/json',
    body: JSON.stringify({ error: { type: 'rate_limit_error', message: `Rate limit exceeded. Retry after ${seconds} second${seconds > 1 ? 's' : ''}.` } }),
    headers: { 'retry-after': String(seconds), 'x-ratelimit-remaining': '0', 'x-request-id': uuid(call) },
  };
};

const GATEWAY_TIMEOUTS: Template[] = [
  () => ({ type: 'http', status: 504, contentType: 'text/html', body: html(504, 'Gateway Time-out') }),
  (call) => ({
    type: 'http',
    status: 504,
    contentType: 'application/json',
    body: '{"message": "Endpoint request timed out"}',
    headers: { 'x-amzn-requestid': uuid(call) },
  }),
];

/** A 5xx in one of several real styles, or now and then a 429 with Retry-After. */
export function serverError(call: HazardCall<ScenarioBase>): HazardFault {
  const template = call.random.bool(0.2) ? RATE_LIMITED : call.random.pick(SERVER_ERRORS);
  return withHint(call, template(call));
}

/** nginx's 502: the upstream closed the connection before answering. */
export function badGateway(call: HazardCall<ScenarioBase>): HazardFault {
  return withHint(call, { type: 'http', status: 502, contentType: 'text/html', body: html(502, 'Bad Gateway') });
}

export function gatewayTimeout(call: HazardCall<ScenarioBase>): HazardFault {
  return withHint(call, call.random.pick(GATEWAY_TIMEOUTS)(call));
}

type HazardEntry = (typeof HAZARD_ERRORS)[keyof typeof HAZARD_ERRORS];
type ApiErrorOptions<Entry extends HazardEntry> = {
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
} & (Entry['status'] extends readonly (infer Status)[] ? { status: Status } : { status?: never });

/**
 * The API's own error (problem JSON), for hazards that speak in the API's voice: an entry of their catalog
 * (errors.ts) gives its code and status; a code listed with several statuses names the one it answers with.
 */
export function apiError<const Entry extends HazardEntry>(
  call: HazardCall<ScenarioBase>,
  entry: Entry,
  detail: string,
  ...[options]: Entry['status'] extends readonly number[] ? [ApiErrorOptions<Entry>] : [ApiErrorOptions<Entry>?]
): HazardFault {
  const status = options?.status ?? entry.status;
  if (typeof status !== 'number') throw new TypeError(`${entry.code} answers with several statuses: name one`);
  return problemFault(call, problem(status, entry.code, detail, options?.extra ?? {}), options?.headers ?? {});
}

/** A problem answer in the API's voice, made already; a frozen one (the same refusal again) is serialized once. */
export function problemFault(call: HazardCall<ScenarioBase>, body: Problem, headers: Record<string, string> = {}): HazardFault {
  return withHint(call, { type: 'http', status: body.status, contentType: PROBLEM_CONTENT_TYPE, body: jsonText(body), document: body, headers });
}

/** In hints mode, a failure carries the hint: as a JSON member, or as a comment or a header otherwise. */
function withHint(call: HazardCall<ScenarioBase>, response: ForeignAnswer): HazardFault {
  if (!call.hints) return new HazardFault(response);
  if (response.contentType.includes('json')) {
    const hinted = { ...((response.document ?? JSON.parse(response.body)) as Record<string, unknown>), hint: call.hint };
    return new HazardFault({ ...response, body: JSON.stringify(hinted), document: hinted });
  }
  const body = response.contentType.includes('html') ? `<!-- hint: ${call.hint} -->\r\n${response.body}` : `${response.body}\n(hint: ${call.hint})`;
  return new HazardFault({ ...response, body, headers: { ...response.headers, 'x-hint': headerText(call.hint) } });
}

/** In hints mode, an object result carries the hint in `_hint`. */
export function hinted<T>(call: HazardCall<ScenarioBase>, result: T): T {
  if (!call.hints || !isObject(result)) return result;
  return { ...result, _hint: call.hint };
}
