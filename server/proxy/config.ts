import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parseJsonText } from '../../lib/json.js';

// The upstreams a proxy may forward to, by name: declared in PROXY_CONFIG or at runtime (PUT /admin/proxies/{name}).
// Nothing else is ever forwarded to: no open proxying.

/** A proxy's name: its path segment (`/proxy/{name}/…`) and its word in hazard flags (`HAZARD__…__CRM__GET_CONTACT`). */
const NAME_RULE = 'lower-case letters, digits and "-", starting with a letter, at most 32 characters';
export const ProxyName = z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, NAME_RULE);

const MIB = 1_048_576;

export const ProxyUpstream = z.strictObject({
  upstream: z
    .url({ protocol: /^https?$/, error: 'an http:// or https:// URL' })
    .refine((url) => !new URL(url).search && !new URL(url).hash, 'a base URL without query or fragment')
    .describe('Where calls go: the base URL the path after /proxy/{name} is appended to.'),
  openapi: z
    .string()
    .min(1)
    .max(2048)
    .optional()
    .describe("The upstream's OpenAPI document (a file, or an http(s) URL): operations are then known by operationId."),
  timeout_ms: z.number().int().min(100).max(120_000).default(10_000).describe('How long the upstream may take before the proxy answers 504.'),
  max_body_bytes: z
    .number()
    .int()
    .min(1024)
    .max(16 * MIB)
    .default(MIB)
    .describe('The largest request or response body forwarded.'),
});
export type ProxyUpstream = z.infer<typeof ProxyUpstream>;

export const ProxyConfig = z.record(ProxyName, ProxyUpstream);
export type ProxyConfig = z.infer<typeof ProxyConfig>;

export class ProxyConfigError extends Error {}

/** Reads PROXY_CONFIG (JSON); a bad file is one error naming the upstream and the field. */
export function loadProxyConfig(path: string): ProxyConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ProxyConfigError(`PROXY_CONFIG=${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let data: unknown;
  try {
    data = parseJsonText(text);
  } catch (error) {
    throw new ProxyConfigError(`PROXY_CONFIG=${path}: not JSON (${(error as Error).message})`);
  }
  return parseProxyConfig(data, `PROXY_CONFIG=${path}`);
}

export function parseProxyConfig(data: unknown, where: string): ProxyConfig {
  const parsed = ProxyConfig.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const message = issue.code === 'invalid_key' ? `not a proxy name: ${ProxyName.description ?? NAME_RULE}` : issue.message;
  throw new ProxyConfigError(`${where}: ${issue.path.join('.') || 'the file'}: ${message}`);
}
