import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { bodyExample, ADMIN_SECURITY } from '../core/openapi.js';
import { problemError } from '../core/problem.js';
import { PROBLEMS } from '../core/problem-responses.js';
import { sendJsonText } from '../core/reply.js';
import { addressedSession, sessionIdOf } from '../core/session-id.js';
import type { Session } from '../core/sessions/session.js';
import { checkAdminDeclaration } from './admin-policy.js';
import { documentSource, isMcpUpstream, parseUpstream, ProxyConfigError, ProxyName, type ProxyUpstream } from './config.js';
import { serveHttp } from './http.js';
import type { Proxies, Upstream } from './proxies.js';
import { servedDocument } from './served-document.js';
import { proxyView } from './state.js';
import type { HttpProxy } from './upstream.js';

/** An upstream that serves its own protocol at `/proxy/{name}/…` (an MCP server). */
export interface ServingUpstream extends Upstream {
  serve(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, session: Session, rest: string): Promise<FastifyReply>;
  /** Ends its clients' sessions: called before the server stops listening, which their open streams would hold. */
  endSessions(): Promise<void>;
}

const isServing = (upstream: Upstream): upstream is ServingUpstream => typeof (upstream as Partial<ServingUpstream>).serve === 'function';

/** The largest request body a proxied route reads; each upstream's own limit (max_body_bytes) is checked within it. */
const PROXY_BODY_LIMIT = 16 * 1_048_576;

/** `/proxy/{name}/…` (and inside sessions `/s/{id}/proxy/{name}/…`): every method, any body, as sent. */
export async function proxyRoutes(app: FastifyInstance, { proxies }: { proxies: Proxies }): Promise<void> {
  // Bodies stay bytes: the upstream receives exactly what the client sent.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: PROXY_BODY_LIMIT }, (_request, body, done) => done(null, body));
  app.addHook('preClose', async () => {
    await Promise.all(proxies.list().map((upstream) => (isServing(upstream) ? upstream.endSessions() : undefined)));
  });

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const { name, '*': rest = '' } = request.params as { name: string; '*'?: string };
    const upstream = proxies.get(name);
    if (!upstream)
      throw problemError(
        404,
        'unknown_proxy',
        `No proxy '${name}'. Declared: ${proxies.names.join(', ') || 'none'} (PROXY_CONFIG, PUT /admin/proxies/{name}).`,
      );
    const session = app.sessions.resolve(sessionIdOf(request));
    if (isServing(upstream)) return upstream.serve(app, request, reply, session, rest);
    const proxy = upstream as HttpProxy;
    if (rest === 'openapi.json' && request.method === 'GET' && proxy.document) return sendDocument(app, request, reply, session, proxy);
    return serveHttp({ sessions: app.sessions, hazards: app.hazards, log: app.log, proxies }, request, reply, session, proxy);
  };
  const config = { access: 'proxied' as const };
  app.all('/proxy/:name', { config, schema: { hide: true } }, handler);
  app.all('/proxy/:name/*', { config, schema: { hide: true } }, handler);
}

function sendDocument(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, session: Session, proxy: HttpProxy) {
  const changed = app.hazards.contracts(proxyView(session).hazards, proxy.name, proxy.contracts());
  const id = addressedSession(request);
  // rewriteUrl has already cut `/s/{id}` from request.url (and raw.url): the path as sent is originalUrl.
  const base = `${id !== undefined && request.originalUrl.startsWith('/s/') ? `/s/${encodeURIComponent(id)}` : ''}/proxy/${proxy.name}`;
  return sendJsonText(reply, JSON.stringify(servedDocument(proxy, base, changed)));
}

/** Where an upstream's calls go, as listings show it: the base URL, the mocked document, the MCP endpoint or command. */
function describeUpstream(config: ProxyUpstream): string {
  if (!isMcpUpstream(config))
    return config.upstream ?? (config.replay === undefined ? `mock of ${documentSource(config.openapi)}` : `replay: ${config.replay}`);
  return typeof config.mcp === 'string' ? config.mcp : `stdio: ${config.mcp.command}`;
}

const ProxySummary = z.object({
  name: z.string(),
  kind: z.enum(['http', 'mcp']),
  upstream: z.string().describe('The base URL, the MCP endpoint, the stdio command, `replay: <file>` or `mock of <document>`.'),
  operations: z.array(z.object({ name: z.string(), description: z.string(), writes: z.boolean() })).describe('Named as hazard settings name them.'),
});

/**
 * GET /proxies, and PUT and DELETE /admin/proxies/{name}. `exec`: whether a PUT may declare commands to start,
 * files to read and documents from any host (ADMIN_PROXY_EXEC; see admin-policy.ts).
 */
export async function proxyAdminRoutes(app: FastifyInstance, { proxies, exec = false }: { proxies: Proxies; exec?: boolean }): Promise<void> {
  const tags = ['proxies'];
  const summary = (upstream: Upstream) => ({
    name: upstream.name,
    kind: upstream.kind,
    upstream: describeUpstream(upstream.config),
    operations: upstream.contracts().map((contract) => ({ name: contract.name, description: contract.description, writes: contract.mutates })),
  });
  app.get(
    '/proxies',
    {
      schema: {
        operationId: 'list_proxies',
        summary: 'The declared upstreams and their operations',
        tags,
        response: { 200: z.array(ProxySummary), ...PROBLEMS },
      },
    },
    async () => proxies.list().map(summary),
  );
  app.put(
    '/admin/proxies/:name',
    {
      config: { access: 'admin' },
      schema: {
        security: ADMIN_SECURITY,
        operationId: 'put_proxy',
        summary: 'Declare (or replace) an upstream served at /proxy/{name}/: {"upstream": URL, "openapi"?} or {"mcp": URL or {command, args}}',
        tags,
        params: z.object({ name: z.string() }),
        body: z.record(z.string(), z.unknown()).describe('One upstream, as in PROXY_CONFIG.'),
        ...bodyExample({ upstream: 'http://127.0.0.1:9090', operations: { get_contact: 'GET /contacts/{id}' }, timeout_ms: 5000 }),
        response: { 200: ProxySummary.extend({ created: z.boolean().describe('False when it replaced an upstream of that name.') }), ...PROBLEMS },
      },
    },
    async (request) => {
      const { name } = request.params as { name: string };
      if (!ProxyName.safeParse(name).success)
        throw problemError(400, 'invalid_proxy', 'name: lower-case letters, digits and "-", starting with a letter, at most 32 characters', { field: 'name' });
      try {
        const config = parseUpstream(request.body, 'body');
        if (!exec) checkAdminDeclaration(config);
        const { upstream, created } = await proxies.put(name, config);
        return { ...summary(upstream), created };
      } catch (error) {
        if (error instanceof ProxyConfigError) throw problemError(400, 'invalid_proxy', error.message, error.field === undefined ? {} : { field: error.field });
        throw error;
      }
    },
  );
  app.delete(
    '/admin/proxies/:name',
    {
      config: { access: 'admin' },
      schema: {
        security: ADMIN_SECURITY,
        operationId: 'delete_proxy',
        summary: 'Remove a declared upstream',
        tags,
        params: z.object({ name: z.string() }),
        response: { 204: z.undefined().describe('Removed.'), ...PROBLEMS },
      },
    },
    async (request, reply) => {
      const { name } = request.params as { name: string };
      if (!(await proxies.delete(name))) throw problemError(404, 'unknown_proxy', `No proxy '${name}'.`);
      return reply.code(204).send();
    },
  );
}
