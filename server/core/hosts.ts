import type { FastifyRequest } from 'fastify';
import { type ProblemError, problemError } from './problem.js';

// The names a request may call the server by. A web page cannot send a request to a server of another
// site and read its answer, unless it rebinds a name of its own to the server's address (DNS rebinding):
// the browser then sends that name as Host. Without API_TOKEN, a request is served only under a name that
// cannot be rebound (loopback ones: browsers resolve *.localhost themselves) or one the user allowed.

const LOOPBACK_HOST = /^(localhost|[a-z0-9.-]+\.localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)(?::\d+)?$/i;

/** True for an address, or a Host, that only this machine can reach. */
export function isLoopback(host: string): boolean {
  return LOOPBACK_HOST.test(host) || host === '::ffff:127.0.0.1';
}

/** A Host value as RFC 9110 has it: a name or IPv4 address (or nothing), or a bracketed IPv6 address, and an optional port. */
const HOST_SYNTAX = /^(?:[a-z0-9\-._~!$&'()*+,;=%]*|\[[0-9a-f:.]+\])(?::\d*)?$/i;
const IP_ADDRESS = /^(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/;

/** 400 for a Host that is no host (a space, a stray bracket): RFC 9112 requires it of every route. */
export function invalidHost(host: string): ProblemError | undefined {
  if (HOST_SYNTAX.test(host)) return undefined;
  return problemError(400, 'invalid_host', `The Host header ${JSON.stringify(host)} is not a host name or address with an optional port.`, { host });
}

export interface HostRule {
  /** ALLOWED_HOSTS: names served besides loopback ones; `*.example.com` for its subdomains. */
  allowed?: readonly string[];
  /** The server listens beyond loopback: it may be called by any of its addresses, which no page can rebind. */
  anyAddress?: boolean;
}

/** Whether a Host (valid, port included) names this server as the rule allows. */
export function hostAllowed({ allowed = [], anyAddress = false }: HostRule): (host: string) => boolean {
  const exact = new Set(allowed.filter((entry) => !entry.startsWith('*.')));
  const suffixes = allowed.filter((entry) => entry.startsWith('*.')).map((entry) => entry.slice(1));
  return (host) => {
    if (isLoopback(host)) return true;
    const name = hostname(host);
    return (anyAddress && IP_ADDRESS.test(name)) || exact.has(name) || suffixes.some((suffix) => name.endsWith(suffix));
  };
}

/** 403 for a name the server is not called by, saying how to allow it. */
export function hostRefused(host: string): ProblemError {
  const name = hostname(host);
  return problemError(
    403,
    'host_not_allowed',
    `This server answers requests for localhost, 127.0.0.1 and [::1], not for ${JSON.stringify(host)}: a web page can rebind a name of its own to ` +
      `this machine. To serve ${name ? `'${name}'` : 'requests without a host'}, add it to ALLOWED_HOSTS, or set API_TOKEN.`,
    { host },
  );
}

/** `example.com` of `Example.COM:8080`, `[::1]` of `[::1]:80`. */
function hostname(host: string): string {
  const end = host.startsWith('[') ? host.indexOf(']') + 1 : host.lastIndexOf(':');
  return (end > 0 ? host.slice(0, end) : host).toLowerCase();
}

/**
 * The host a request names: the authority of an absolute-form target (`GET http://host/path`), which
 * RFC 9112 puts before Host, else the Host header.
 */
export function requestedHost(request: FastifyRequest): string {
  const target = request.raw.url ?? '';
  if (!target.startsWith('/')) {
    const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(target)?.[1];
    if (authority !== undefined) return authority.slice(authority.lastIndexOf('@') + 1);
  }
  return request.headers.host ?? '';
}
