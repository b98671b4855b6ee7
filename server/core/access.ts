import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { onRequestHookHandler, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { closeUpgradeWhenAnswered } from './upgrade.js';
import { sendProblem } from './errors.js';
import { type HostRule, hostAllowed, hostRefused, invalidHost, requestedHost } from './hosts.js';
import { ProblemError, problem } from './problem.js';

/**
 * Who may use which route. `admin`: routes that change the configuration or sessions other than by
 * calling tools (hazard settings, reset, delete). `public`: liveness and the documentation pages.
 * `api`: everything else (tools, listings, sessions, journals). `proxied`: an api route whose Authorization
 * header belongs to the upstream behind it (`/proxy/…`): API_TOKEN travels in Proxy-Authorization instead,
 * the header HTTP reserves for a proxy's own credentials, which is never forwarded.
 */
export type Access = 'admin' | 'api' | 'proxied' | 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
}

export interface AccessOptions {
  /** Bearer token for admin routes; without one, admin routes answer only same-machine requests. */
  adminToken?: string;
  /** Bearer token for every api route (the admin token works there too); none: api routes are open. */
  apiToken?: string;
  /** The names requests may call the server by when no API token guards the routes (and admin routes without an admin token). */
  hosts?: HostRule;
}

/** A token for admin routes when the server is reachable from other machines and none was set. */
export const generateToken = (): string => randomBytes(24).toString('base64url');

const digest = (text: string) => createHash('sha256').update(text).digest();
/** Compares in constant time, so that the answer's timing tells nothing about the token. */
const matches = (given: Buffer, token: Buffer) => timingSafeEqual(given, token);

function bearerOf(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

function unauthorized(detail: string, invalid: boolean): ProblemError {
  const challenge = `Bearer realm="wildtools"${invalid ? ', error="invalid_token"' : ''}`;
  return new ProblemError(problem(401, invalid ? 'invalid_token' : 'unauthorized', detail), { 'www-authenticate': challenge });
}

/** The access a route needs: declared in its config, else public for liveness and docs, else api. */
function accessOf(route: RouteOptions): Access {
  const declared = (route.config as { access?: Access } | undefined)?.access;
  if (declared) return declared;
  return route.url === '/health' || route.url === '/docs' || route.url.startsWith('/docs/') ? 'public' : 'api';
}

/**
 * Guards routes: every route by the name it is called by, then by its access. Each route gets only the
 * checks it needs (added when it is registered).
 */
export const accessControl = fp<AccessOptions>(
  async (app, { adminToken, apiToken, hosts = {} }) => {
    const admin = adminToken === undefined ? undefined : digest(adminToken);
    const api = apiToken === undefined ? undefined : digest(apiToken);
    const allowed = hostAllowed(hosts);
    // Admin routes without a token are this machine's: never under an address another may rebind or reach.
    const local = hostAllowed({ ...hosts, anyAddress: false });

    // With API_TOKEN the token is the guard (a rebinding page cannot know it): the Host need only be one.
    // The verdict depends on the host alone: the last one accepted is remembered (a client keeps sending its own).
    let accepted: string | undefined;
    /** Every route but the WebSocket one also closes a WebSocket handshake it answers. */
    const hostGuard =
      (closeUpgrades: boolean): onRequestHookHandler =>
      (request, reply, done) => {
        if (closeUpgrades) closeUpgradeWhenAnswered(request, reply);
        const host = requestedHost(request);
        if (host === accepted) return done();
        const failure = invalidHost(host) ?? (api || allowed(host) ? undefined : hostRefused(host));
        if (failure) return sendProblem(reply, failure);
        accepted = host;
        done();
      };
    const socketHostGuard = hostGuard(false);
    const httpHostGuard = hostGuard(true);

    const adminGuard: onRequestHookHandler = (request, reply, done) => {
      if (admin) {
        const given = bearerOf(request.headers.authorization);
        if (given === undefined) return sendProblem(reply, unauthorized('This route changes the server: send Authorization: Bearer <ADMIN_TOKEN>.', false));
        if (!matches(digest(given), admin)) return sendProblem(reply, unauthorized('The token is not the admin token (ADMIN_TOKEN).', true));
        return done();
      }
      // No admin token: the server listens on loopback only. Refuse what a web page could send
      // from a browser on this machine (another site, or a name rebound to 127.0.0.1), unless the
      // user allowed its name (ALLOWED_HOSTS).
      const origin = request.headers.origin;
      if (!local(requestedHost(request)) || (origin !== undefined && !local(originHost(origin)))) {
        return sendProblem(
          reply,
          new ProblemError(problem(403, 'cross_site_refused', 'Admin routes answer requests from this machine only, not from a web page of another site.')),
        );
      }
      done();
    };

    const guardApi = (header: 'authorization' | 'proxy-authorization'): onRequestHookHandler => {
      const name = header === 'authorization' ? 'Authorization' : 'Proxy-Authorization';
      return (request, reply, done) => {
        const given = bearerOf(request.headers[header]);
        if (given === undefined) return sendProblem(reply, unauthorized(`Send ${name}: Bearer <API_TOKEN>.`, false));
        const hash = digest(given);
        if (matches(hash, api!) || (admin !== undefined && matches(hash, admin))) return done();
        sendProblem(reply, unauthorized(`The ${name} token is neither API_TOKEN nor ADMIN_TOKEN.`, true));
      };
    };
    const apiGuard = guardApi('authorization');
    const proxiedGuard = guardApi('proxy-authorization');

    app.addHook('onRoute', (route) => {
      const access = accessOf(route);
      const guard = access === 'admin' ? adminGuard : !api ? undefined : access === 'api' ? apiGuard : access === 'proxied' ? proxiedGuard : undefined;
      const existing = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
      route.onRequest = [route.websocket ? socketHostGuard : httpHostGuard, ...(guard ? [guard] : []), ...existing];
    });
  },
  { name: 'access-control' },
);

function originHost(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return '';
  }
}
