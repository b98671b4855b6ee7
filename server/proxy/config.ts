import { readBoundedText } from '../../lib/bounded-file.js';
import { z } from 'zod';
import { parseYamlText as parseYaml } from '../../lib/yaml.js';
import { parseJsonText } from '../../lib/json.js';
import { catastrophicBacktracking } from './patterns.js';
import { isObject } from '../../lib/object.js';

// The upstreams a proxy may forward to, by name: declared in PROXY_CONFIG or at runtime (PUT /admin/proxies/{name}).
// Nothing else is ever forwarded to: no open proxying.

/** A proxy's name: its path segment (`/proxy/{name}/…`) and its word in hazard flags (`HAZARD__…__CRM__GET_CONTACT`). */
const NAME_RULE = 'lower-case letters, digits and "-", starting with a letter, at most 32 characters';
export const ProxyName = z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, NAME_RULE);

const MIB = 1_048_576;

/** An operation's name as hazard flags, rules and the journal use it (an operationId in words). */
const OperationName = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'an operation name: lower-case letters, digits and "_"');

/** A rule's pattern: a regular expression that cannot backtrack catastrophically (see patterns.ts). */
const regex = z
  .string()
  .min(1)
  .max(500)
  .refine((source) => {
    try {
      new RegExp(source);
      return true;
    } catch {
      return false;
    }
  }, 'a regular expression')
  .superRefine((source, context) => {
    const risk = catastrophicBacktracking(source);
    if (risk)
      context.addIssue({
        code: 'custom',
        message:
          `the pattern '${source}' can backtrack catastrophically (${risk}), which would stall the server on a long value: repeat one class or a ` +
          `fixed count instead (such as [a-z0-9-]+ or \\d{3})`,
      });
  });

/**
 * The knowledge a kind needs that no upstream states: a rule of the API's (a parameter format), a limit of
 * the plan, a second source that disagrees. Each is switched on like any scenario (HAZARD__<KIND>__<NAME>__<OP>).
 */
export const ProxyRule = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('adhoc_rule'),
    operation: OperationName,
    param: z.string().min(1).max(64).describe('The parameter the convention is about.'),
    pattern: regex.describe('What a conforming value matches while the rule is on; any other value gets a 422.'),
    rewrite: z.string().max(200).optional().describe("The upstream's own value, as a replacement of `pattern` ($1 for a group); unchanged when absent."),
    rule: z.string().min(1).max(500).describe("The sentence the operation's description gains while the rule is on."),
    message: z.string().min(1).max(500).describe('The terse message of the 422.'),
  }),
  z.strictObject({
    kind: z.literal('feature_limit'),
    operation: OperationName,
    param: z.string().min(1).max(64),
    max: z.number().optional().describe('A number above this hits the limit.'),
    pattern: regex.optional().describe('A value matching this hits the limit.'),
    message: z.string().min(1).max(500).describe('The reason, naming the workaround (a smaller page, another identifier).'),
    status: z.union([z.literal(403), z.literal(422)]).default(422),
  }),
  z.strictObject({
    kind: z.literal('conflict'),
    operation: OperationName,
    field: z.string().min(1).max(64).describe('The member whose value this operation reports differently.'),
    authority: OperationName.describe('The operation whose value is right, as the policy states.'),
  }),
]);
export type ProxyRule = z.infer<typeof ProxyRule>;

const Common = {
  timeout_ms: z.number().int().min(100).max(120_000).default(10_000).describe('How long the upstream may take before the proxy answers 504.'),
  rules: z.array(ProxyRule).max(100).default([]).describe('Scenarios of the kinds that need knowledge of the API (adhoc_rule, feature_limit, conflict).'),
};

const httpUrl = (what: string) =>
  z
    .url({ protocol: /^https?$/, error: 'an http:// or https:// URL' })
    .refine((url) => !new URL(url).search && !new URL(url).hash, `${what} without query or fragment`);

/** Records a mock's session holds per resource unless `mock.max_records` says otherwise. */
export const MOCK_MAX_RECORDS = 1_000;

/** What a mock (an upstream given only by its OpenAPI document) may be told beyond the document. */
export const MockOptions = z.strictObject({
  seed_file: z.string().min(1).max(1024).optional().describe('A JSON or YAML file of the initial records: an object of resource → array of records.'),
  seed: z
    .record(z.string(), z.array(z.record(z.string(), z.unknown())))
    .optional()
    .describe('The initial records themselves, in place of seed_file: an object of resource → array of records.'),
  max_records: z
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .optional()
    .describe(`Most records a session may hold per resource (default ${MOCK_MAX_RECORDS}): a create beyond it is refused (403 quota_exceeded).`),
  operations: z
    .record(
      z.string().max(256),
      z.strictObject({
        resource: z.string().min(1).max(128).optional(),
        action: z.enum(['create', 'read', 'list', 'update', 'delete', 'none']).optional(),
        id: z.string().min(1).max(128).optional().describe('The path parameter naming the record.'),
      }),
    )
    .refine((operations) => Object.keys(operations).length <= 1000, 'at most 1000 operations')
    .optional()
    .describe('What an operation does to the records, by operation name (or "METHOD /path"), where reading its path gets it wrong.'),
});

export type MockOptions = z.infer<typeof MockOptions>;

/** How an `openapi` source is named in messages and listings: the file or URL, or "an inline document". */
export const documentSource = (openapi: string | Record<string, unknown> | undefined): string => (typeof openapi === 'string' ? openapi : 'an inline document');

/**
 * An HTTP API: calls to `/proxy/{name}/…` go to `upstream` + `…`; with `replay` and no `upstream`, a recording
 * answers them; with neither, its OpenAPI document is served as a stateful mock (server/proxy/mock/).
 */
export const HttpUpstream = z
  .strictObject({
    upstream: httpUrl('a base URL')
      .optional()
      .describe(
        'Where calls go: the base URL the path after /proxy/{name} is appended to. Not needed to replay; without it or a replay, ' +
          'the OpenAPI document is mocked.',
      ),
    openapi: z
      .union([z.string().min(1).max(2048), z.record(z.string(), z.unknown())])
      .optional()
      .describe("The upstream's OpenAPI document (a file, an http(s) URL, or the document itself): operations are then known by operationId."),
    operations: z
      .record(OperationName, z.string().regex(/^(GET|PUT|POST|DELETE|PATCH) \/\S*$/, 'METHOD /path/{param}'))
      .optional()
      .describe('Without an OpenAPI document: operations named by method and path template ("GET /contacts/{id}").'),
    max_body_bytes: z
      .number()
      .int()
      .min(1024)
      .max(16 * MIB)
      .default(MIB)
      .describe('The largest request or response body forwarded.'),
    record: z
      .string()
      .min(1)
      .max(1024)
      .optional()
      .describe("A JSON Lines file each distinct request and the upstream's answer are appended to, secrets redacted (record.ts)."),
    record_limits: z
      .strictObject({
        max_entries: z.number().int().min(1).max(100_000).optional().describe('At most this many recorded exchanges (default 1000).'),
        max_bytes: z
          .number()
          .int()
          .min(1024)
          .max(256 * MIB)
          .optional()
          .describe('At most this many bytes of recording file (default 10 MiB).'),
      })
      .optional(),
    redact: z
      .strictObject({
        headers: z.array(z.string().min(1).max(128)).max(100).optional().describe('Header names whose values are redacted (case-insensitive).'),
        fields: z
          .array(z.string().min(1).max(128))
          .max(100)
          .optional()
          .describe('Words a redacted body member or query parameter name contains (case-insensitive).'),
      })
      .optional()
      .describe('What a recording never keeps; default headers authorization, cookie, set-cookie, x-api-key; fields password, token, secret.'),
    replay: z.string().min(1).max(1024).optional().describe('A recording (record) whose answers are served instead of calling an upstream.'),
    match: z
      .strictObject({
        query: z.boolean().optional().describe('Whether a replayed request must have the same query parameters, in any order (default true).'),
        body: z.boolean().optional().describe('Whether a replayed request must have the same body, JSON compared as JSON (default true).'),
      })
      .optional(),
    mock: MockOptions.optional().describe('Options of the mock served when there is no upstream URL and no recording to replay.'),
    ...Common,
  })
  .superRefine((config, context) => {
    if (config.record !== undefined && config.replay !== undefined)
      context.addIssue({ code: 'custom', path: ['replay'], message: 'record or replay, not both' });
    if (config.upstream === undefined && config.replay === undefined && config.openapi === undefined)
      context.addIssue({ code: 'custom', path: ['upstream'], message: 'a base URL, a recording to replay, or an openapi document to serve as a mock' });
    if (config.record !== undefined && config.upstream === undefined)
      context.addIssue({ code: 'custom', path: ['upstream'], message: 'the upstream to record' });
    if (config.mock?.seed !== undefined && config.mock.seed_file !== undefined)
      context.addIssue({ code: 'custom', path: ['mock', 'seed'], message: 'seed or seed_file, not both' });
    if ((config.upstream !== undefined || config.replay !== undefined) && config.mock !== undefined)
      context.addIssue({ code: 'custom', path: ['mock'], message: 'mock options apply only without an upstream URL or a replay (a mock)' });
  });
export type HttpUpstream = z.infer<typeof HttpUpstream>;

/** A child process speaking MCP over stdio, started when the proxy is declared. */
const StdioServer = z.strictObject({
  command: z.string().min(1).max(1024),
  args: z.array(z.string().max(4096)).max(64).default([]),
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string().max(4096)).optional(),
  cwd: z.string().max(1024).optional(),
});

/** An MCP server: over Streamable HTTP (its URL), or a child process over stdio. */
export const McpUpstream = z.strictObject({
  mcp: z.union([httpUrl('an MCP endpoint URL'), StdioServer]).describe('The MCP server: its Streamable HTTP URL, or {command, args} to start over stdio.'),
  ...Common,
});
export type McpUpstream = z.infer<typeof McpUpstream>;

export const ProxyUpstream = z.union([HttpUpstream, McpUpstream]);
export type ProxyUpstream = z.infer<typeof ProxyUpstream>;

export const isMcpUpstream = (upstream: ProxyUpstream): upstream is McpUpstream => 'mcp' in upstream;

/** One upstream's declaration: HTTP (`upstream`) or MCP (`mcp`), each checked by its own schema so errors name the field. */
export function parseUpstream(data: unknown, where: string, name?: string): ProxyUpstream {
  const schema = typeof data === 'object' && data !== null && 'mcp' in data ? McpUpstream : HttpUpstream;
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = [...(name === undefined ? [] : [name]), ...issue.path].join('.');
  const field = issue.path.join('.');
  throw new ProxyConfigError(`${where}: ${path ? `${path}: ` : ''}${issue.message}`, field || undefined);
}

export type ProxyConfig = Record<string, ProxyUpstream>;

export class ProxyConfigError extends Error {
  constructor(
    message: string,
    /** The member of the declaration at fault (`mock.seed`, `openapi`), when one is. */
    readonly field?: string,
  ) {
    super(message);
  }
}

/** Largest PROXY_CONFIG file: hundreds of upstreams with their rules. */
const PROXY_CONFIG_LIMIT = 4 * 1024 * 1024;

/** Reads PROXY_CONFIG (JSON, or YAML for a .yaml or .yml file); a bad file is one error naming the upstream and the field. */
export function loadProxyConfig(path: string): ProxyConfig {
  let text: string;
  try {
    text = readBoundedText(path, PROXY_CONFIG_LIMIT);
  } catch (error) {
    throw new ProxyConfigError(`PROXY_CONFIG=${path}: ${(error as Error).message}`);
  }
  const yaml = /\.ya?ml$/i.test(path);
  let data: unknown;
  try {
    data = yaml ? parseYaml(text) : parseJsonText(text);
  } catch (error) {
    throw new ProxyConfigError(`PROXY_CONFIG=${path}: not ${yaml ? 'YAML' : 'JSON'} (${(error as Error).message.split('\n')[0]})`);
  }
  return parseProxyConfig(data, `PROXY_CONFIG=${path}`);
}

/** The whole configuration: an object of name → upstream. */
export function parseProxyConfig(data: unknown, where: string): ProxyConfig {
  if (!isObject(data)) throw new ProxyConfigError(`${where}: the file: an object of name → upstream`);
  const config: ProxyConfig = {};
  for (const [name, upstream] of Object.entries(data)) {
    if (!ProxyName.safeParse(name).success) throw new ProxyConfigError(`${where}: ${name}: not a proxy name: ${NAME_RULE}`);
    config[name] = parseUpstream(upstream, where, name);
  }
  return config;
}
