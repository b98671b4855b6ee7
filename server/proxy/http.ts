import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseJsonText } from '../../lib/json.js';
import type { CallDependencies } from '../core/pipeline.js';
import { sendFault } from '../core/fault-reply.js';
import { PROBLEM_CONTENT_TYPE, problemError } from '../core/problem.js';
import { JSON_TYPE, sendJsonText } from '../core/reply.js';
import type { Session } from '../core/sessions/session.js';
import { answerData } from './answer.js';
import { forward, forwardedHeaders, type UpstreamAnswer } from './forward.js';
import { type ProxyOutcome, proxyCall, type Sent } from './call.js';
import { fillPath, type ParamPlace, pathValues } from './operations.js';
import type { MockAnswer } from './mock/mock.js';
import { fromOffset, PAGE_TOKEN, pageToken } from './pages.js';
import { pathAfterProxy, upstreamPath } from './path.js';
import { redactedPath } from './redact.js';
import { proxyView } from './state.js';
import type { HttpProxy, ProxyTool } from './upstream.js';
import { isObject } from '../../lib/object.js';

/** A request as a call: its arguments (path, query and JSON body members) and where each came from. */
interface Arguments {
  args: Record<string, unknown>;
  places: Map<string, ParamPlace>;
  /** The body, when it is a JSON object (its members are arguments). */
  json: boolean;
}

/**
 * Serves one request to `/proxy/{name}/…` through the call pipeline: the upstream receives it exactly as sent
 * (headers, authorization included, and body bytes) unless a hazard rewrote an argument; the client receives
 * the upstream's answer exactly unless a hazard changed it.
 */
export async function serveHttp(
  deps: CallDependencies & { proxies: { attach(): void } },
  request: FastifyRequest,
  reply: FastifyReply,
  session: Session,
  proxy: HttpProxy,
): Promise<FastifyReply> {
  const { method } = request;
  const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
  const path = upstreamPath(pathAfterProxy(request.url));
  const found = proxy.operationOf(method, path);
  if (!found)
    throw problemError(404, 'unknown_operation', `The upstream's OpenAPI document has no operation for ${method} ${path}.`, {
      operations: proxy.contracts().map((c) => c.name),
    });
  if (found.discovered) deps.proxies.attach();
  const { tool } = found;
  const body = Buffer.isBuffer(request.body) ? request.body : undefined;
  if (body && body.length > proxy.config.max_body_bytes)
    throw problemError(413, 'request_too_large', `The request body is larger than ${proxy.config.max_body_bytes} bytes (max_body_bytes).`);
  const parsed = argumentsOf(tool, path, query, body, request.headers['content-type']);
  const headers = forwardedHeaders(request.headers);
  const reads = proxyView(session).state.reads;

  const send = async (args: Record<string, unknown>, changed: boolean): Promise<Sent<UpstreamAnswer>> => {
    const offset = pageToken.offset(args[PAGE_TOKEN]);
    const rebuilt = changed || pageToken.ours(args[PAGE_TOKEN]) ? requestOf(tool, path, args, parsed, body) : { path: path + query, body };
    const sent = { method, path: rebuilt.path, body: rebuilt.body };
    if (proxy.replayer) return answered(proxy.replayer.answer(sent), offset);
    if (proxy.mock)
      return answered(
        proxy.mock.answer({ session, operation: tool.operation, args, places: parsed.places, headers: request.headers, body, json: parsed.json }),
        offset,
      );
    const answer = await forward({
      url: upstreamUrl(proxy.config.upstream!, rebuilt.path),
      method,
      headers: rebuilt.body === body ? headers : { ...headers, 'content-type': 'application/json' },
      body: rebuilt.body,
      timeoutMs: proxy.config.timeout_ms,
      maxBodyBytes: proxy.config.max_body_bytes,
    });
    await proxy.recorder?.record(sent, answer, (message) => request.log.warn(message));
    return answered(answer, offset);
  };

  /** The upstream's answer (its recording, or the mock's) as the pipeline receives it: a GET's data remembered, and paged. */
  const answered = (answer: MockAnswer, offset: number): Sent<UpstreamAnswer> => {
    const ok = answer.status >= 200 && answer.status < 300;
    const text = answer.body.toString('utf8');
    const result = answerData(text, answer.headers['content-type'], answer.status);
    if (answer.wrote || answer.idempotency)
      return { ok, status: answer.status, result, raw: answer, text, wrote: answer.wrote, idempotency: answer.idempotency };
    if (!ok || method !== 'GET' || result === null || typeof result !== 'object') return { ok, status: answer.status, result, raw: answer, text };
    reads.set(tool.name, path, result);
    const page = fromOffset(result, offset);
    return { ok, status: answer.status, result: page, raw: answer, text, rewritten: page !== result };
  };

  const outcome = await proxyCall(deps, {
    session,
    proxy: proxy.name,
    tool,
    args: parsed.args,
    request: { method, path: redactedPath(path + query) },
    send,
  });
  return reply_(request, reply, outcome);
}

/** The declared base and the path; nothing a client sends (or a hazard rebuilds) can leave the base's origin or path. */
function upstreamUrl(base: string, path: string): string {
  const url = base.replace(/\/$/, '') + path;
  const sent = new URL(url);
  const declared = new URL(base);
  const below = sent.pathname.startsWith(declared.pathname.replace(/\/?$/, '/')) || sent.pathname === declared.pathname;
  if (sent.origin !== declared.origin || !below) throw problemError(400, 'invalid_path', 'The path would leave the declared upstream.', { field: 'path' });
  return url;
}

function argumentsOf(tool: ProxyTool, path: string, query: string, body: Buffer | undefined, type: string | undefined): Arguments {
  const args: Record<string, unknown> = {};
  const places = new Map<string, ParamPlace>();
  for (const [name, value] of Object.entries(pathValues(tool.operation.path, path) ?? {})) {
    args[name] = value;
    places.set(name, 'path');
  }
  const search = new URLSearchParams(query);
  for (const name of new Set(search.keys())) {
    if (places.has(name)) continue;
    const values = search.getAll(name);
    args[name] = values.length === 1 ? values[0] : values;
    places.set(name, 'query');
  }
  let json = false;
  if (body && body.length > 0 && /json/i.test(type ?? '')) {
    try {
      const value: unknown = parseJsonText(body.toString('utf8'));
      if (isObject(value)) {
        json = true;
        for (const [name, member] of Object.entries(value)) {
          if (places.has(name)) continue;
          args[name] = member;
          places.set(name, 'body');
        }
      }
    } catch {
      // Not JSON after all (or too deep, or with a prototype key, to read as arguments): the upstream will say
      // so; the proxy passes it on as it is.
    }
  }
  return { args, places, json };
}

/** The request as a hazard left its arguments: each in the place it came from (or the document declares). */
function requestOf(
  tool: ProxyTool,
  path: string,
  args: Record<string, unknown>,
  sent: Arguments,
  body: Buffer | undefined,
): { path: string; body: Buffer | undefined } {
  const declared = new Map((tool.operation.params ?? []).map((p) => [p.name, p.in]));
  const pathArgs: Record<string, unknown> = {};
  const query = new URLSearchParams();
  const members: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (name === PAGE_TOKEN && pageToken.ours(value)) continue;
    const place = sent.places.get(name) ?? declared.get(name) ?? (sent.json ? 'body' : 'query');
    if (place === 'path') pathArgs[name] = value;
    else if (place === 'body') members[name] = value;
    else for (const item of Array.isArray(value) ? value : [value]) query.append(name, typeof item === 'string' ? item : JSON.stringify(item));
  }
  const filled = /\{[^}]+\}/.test(tool.operation.path) ? fillPath(tool.operation.path, pathArgs) : path;
  const search = query.toString();
  const json = sent.json || Object.keys(members).length > 0;
  return { path: filled + (search ? `?${search}` : ''), body: json ? Buffer.from(JSON.stringify(members)) : body };
}

/** Headers an upstream sent about the body it sent, which a reshaped body no longer matches. */
const ABOUT_THE_BODY = new Set(['content-type', 'etag', 'content-md5', 'digest', 'content-encoding', 'content-range']);

function reply_(request: FastifyRequest, reply: FastifyReply, outcome: ProxyOutcome<UpstreamAnswer>): FastifyReply {
  const upstream = outcome.sent?.raw;
  if (outcome.fault) return sendFault(request, reply, outcome.fault, outcome.text);
  if (outcome.kind === 'passthrough' && upstream) {
    reply.code(upstream.status).headers({ ...upstream.headers, ...outcome.headers });
    return reply.send(upstream.body);
  }
  if (outcome.kind === 'result' && upstream) {
    const kept = Object.fromEntries(Object.entries(upstream.headers).filter(([name]) => !ABOUT_THE_BODY.has(name)));
    reply.code(outcome.status).headers({ ...kept, ...outcome.headers });
    return sendJsonText(reply, outcome.text, JSON_TYPE);
  }
  reply.code(outcome.status).headers(outcome.headers);
  return sendJsonText(reply, outcome.text, PROBLEM_CONTENT_TYPE);
}
