import { type ProblemError, problemError } from '../core/problem.js';
import { isMcpUpstream, type ProxyUpstream } from './config.js';
import { isDocumentUrl } from './document.js';

// PROXY_CONFIG is written by whoever starts the server; an admin call comes from anyone holding the admin
// token, or any local process on loopback. So a declaration over HTTP may not start a command, read a local
// file, or make the server fetch from a host the declaration does not already reach, unless the operator
// says admin callers are as trusted as the config file.

/** The variable that lets PUT /admin/proxies/{name} declare what otherwise only PROXY_CONFIG may. */
export const ADMIN_EXEC_VARIABLE = 'ADMIN_PROXY_EXEC';

const UNLESS = `Only PROXY_CONFIG may, unless the server runs with ${ADMIN_EXEC_VARIABLE}=1.`;

/**
 * Refuses (403, naming the field) what a declaration over HTTP may not ask for: an MCP server started as a
 * command, an OpenAPI document read from a file, or one fetched from another host than the upstream's, a
 * recording's file (`record`, `replay`).
 */
export function checkAdminDeclaration(config: ProxyUpstream): void {
  if (isMcpUpstream(config)) {
    if (typeof config.mcp !== 'string')
      throw refused(
        'mcp',
        `mcp: an admin call may not start a command (${config.mcp.command}) as the server's user; declare the MCP server by its http(s) URL. ${UNLESS}`,
      );
    return;
  }
  for (const field of ['record', 'replay'] as const) {
    const file = config[field];
    if (file !== undefined) throw refused(field, `${field}: an admin call may not make the server write or read a local file (${file}). ${UNLESS}`);
  }
  if (config.mock?.seed_file !== undefined)
    throw refused('mock.seed_file', `mock.seed_file: an admin call may not make the server read a local file (${config.mock.seed_file}). ${UNLESS}`);
  const source = config.openapi;
  // A document given whole is neither read from a file nor fetched.
  if (source === undefined || typeof source !== 'string') return;
  if (!isDocumentUrl(source))
    throw refused(
      'openapi',
      `openapi: an admin call may not make the server read a local file (${source}); give the document's http(s) URL on the upstream's host. ${UNLESS}`,
    );
  const host = hostOf(source);
  if (config.upstream === undefined)
    throw refused('openapi', `openapi: a mock has no upstream whose host an admin call may fetch the document from (${host || 'an invalid URL'}). ${UNLESS}`, {
      host,
    });
  const upstream = hostOf(config.upstream);
  if (host !== upstream)
    throw refused(
      'openapi',
      `openapi: an admin call may fetch the document only from the upstream it declares (${upstream}), not from ${host || 'an invalid URL'}. ${UNLESS}`,
      { host },
    );
}

/** The host (and port) of a URL, as URL reads it; empty when it is no URL. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

const refused = (field: string, detail: string, extra: Record<string, unknown> = {}): ProblemError =>
  problemError(403, 'proxy_not_allowed', detail, { field, ...extra });
