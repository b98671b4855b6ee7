import { isDeepStrictEqual } from 'node:util';
import type { SwaggerOptions } from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { ToolContract } from '../../hazards/kind.js';
import { jsonSchemaOf } from '../../lib/json-schema.js';
import { withToolErrors } from './problem-responses.js';
import { SessionId } from './sessions/session.js';
import { VERSION } from './version.js';

type Document = {
  openapi: string;
  info: Record<string, unknown>;
  paths?: Record<string, unknown>;
  tags?: { name: string }[];
  [key: string]: unknown;
};

/** The header that names the session of a tool call or a listing (server/core/session-id.ts). */
const SESSION_HEADER = 'X-Session-Id';

export const SESSION_NOTE =
  'Every route also works inside a session: prefix its path with /s/{session}/ (the second server). Tool calls and ' +
  `listings also take the header ${SESSION_HEADER}: {session}. Without either, calls run in the session "default".`;

const SECURITY_NOTE =
  'Admin operations (hazard settings, session reset and delete) need the bearer token ADMIN_TOKEN whenever one is in ' +
  'force (always when the server listens off loopback; on loopback without one, they answer this machine only). With ' +
  'API_TOKEN set, every other operation but /health needs a bearer token: API_TOKEN or ADMIN_TOKEN.';

/** The document's frame: everything but the operations, which come from the route schemas. */
const swaggerDocument = {
  openapi: '3.1.0',
  info: {
    title: 'wildtools',
    version: VERSION,
    description:
      'A mock API server that simulates unreliable tool environments for testing LLM agents: executable tools ' +
      `in several domains, each backed by its own database, with switchable realistic hazards. ${SESSION_NOTE} ${SECURITY_NOTE}`,
  },
  servers: [
    { url: '/', description: `The session "default", or the one ${SESSION_HEADER} names.` },
    {
      url: '/s/{session}',
      description: 'Inside a session: every route works under this prefix.',
      variables: { session: { default: 'default', description: 'The session id; a tool call creates the session when it does not exist.' } },
    },
  ],
  // Open unless API_TOKEN is set; admin and public operations declare their own.
  security: [{}, { apiToken: [] }] as Record<string, string[]>[],
  components: {
    securitySchemes: {
      apiToken: {
        type: 'http' as const,
        scheme: 'bearer',
        description: 'API_TOKEN (or ADMIN_TOKEN): needed by every operation but /health when the server has API_TOKEN set.',
      },
      adminToken: {
        type: 'http' as const,
        scheme: 'bearer',
        description: 'ADMIN_TOKEN: needed by admin operations whenever one is in force (always when the server listens off loopback).',
      },
    },
    parameters: {
      [SESSION_HEADER]: {
        name: SESSION_HEADER,
        in: 'header' as const,
        required: false,
        description: 'The session to act in, when the path has no /s/{session}/ prefix (the prefix wins); "default" when absent.',
        schema: jsonSchemaOf(SessionId, 'input'),
      },
    },
  },
};

/**
 * The options of @fastify/swagger: one OpenAPI 3.1 document, generated from the route schemas; the
 * zod schemas registered with an id (the problem) become components, and the operations marked as
 * reading X-Session-Id get its shared parameter.
 */
export const swaggerOptions: SwaggerOptions = {
  openapi: swaggerDocument,
  transform: jsonSchemaTransform,
  transformObject: (input) =>
    withReferencedSchemas(withToolErrors(withBodyExamples(withSessionHeader(jsonSchemaTransformObject(input) as Document)))) as ReturnType<
      typeof jsonSchemaTransformObject
    >,
};

/** The security requirement of an admin operation: ADMIN_TOKEN, or none on loopback without one. */
export const ADMIN_SECURITY: Record<string, string[]>[] = [{ adminToken: [] }, {}];

/** The security requirement of a public operation (liveness): none, whatever the tokens. */
export const PUBLIC_SECURITY: Record<string, string[]>[] = [];

/**
 * Marks a route schema whose handler reads the session from the X-Session-Id header; the
 * documents give its operation the shared header parameter instead.
 */
export const HONOURS_SESSION_HEADER = { 'x-session-header': true } as const;

/**
 * Splits the generated document: each domain's routes form that domain's API; the rest
 * (the combined view, sessions, server routes) forms the combined document.
 */
export function openapiDocuments(app: FastifyInstance): Map<string, Document> {
  const full = app.swagger() as unknown as Document;
  const documents = new Map<string, Document>();
  const domainPaths = new Map<string, Record<string, unknown>>();
  const combinedPaths: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(full.paths ?? {})) {
    const domain = path.split('/')[1] ?? '';
    if (app.registry.domains.has(domain)) {
      const paths = domainPaths.get(domain) ?? {};
      paths[path] = item;
      domainPaths.set(domain, paths);
    } else {
      combinedPaths[path] = item;
    }
  }
  documents.set('combined', withReferencedSchemas({ ...full, paths: combinedPaths, tags: tagsIn(combinedPaths) }));
  for (const domain of app.registry.domains.values()) {
    const paths = domainPaths.get(domain.name) ?? {};
    documents.set(
      domain.name,
      withReferencedSchemas({
        ...full,
        info: { title: `wildtools ${domain.title} API`, version: VERSION, description: `${domain.summary} ${SESSION_NOTE}` },
        paths,
        tags: tagsIn(paths),
      }),
    );
  }
  return documents;
}

/**
 * The routes under one base path as a document of their own, their paths relative to it: what a client given
 * that base URL reads (OpenEnv's validator reads /reset, /step and /state off `<base_url>/openapi.json`).
 */
export function documentUnder(app: FastifyInstance, base: string, info: { title: string; description: string }): Document {
  const full = app.swagger() as unknown as Document;
  const paths: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(full.paths ?? {})) if (path.startsWith(`${base}/`)) paths[path.slice(base.length)] = item;
  return withReferencedSchemas({ ...full, info: { ...info, version: VERSION }, servers: [{ url: base }], paths, tags: tagsIn(paths) });
}

/**
 * The document with only the component schemas it references: the zod transform emits an input and
 * an output variant of every registered schema, and a domain may not use them all.
 */
function withReferencedSchemas(document: Document): Document {
  const components = (document['components'] ?? {}) as { schemas?: Record<string, unknown> };
  const schemas = components.schemas ?? {};
  const used = (name: string) => {
    const { [name]: _itself, ...others } = schemas;
    return JSON.stringify({ ...document, components: { ...components, schemas: others } }).includes(`"#/components/schemas/${name}"`);
  };
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => used(name)));
  return { ...document, components: { ...components, schemas: kept } };
}

const BODY_EXAMPLE = 'x-body-example';

/**
 * Marks a route schema with an example of its request body: the documents show it on the body's JSON media type,
 * which Swagger UI's "Try it out" starts from (none when `example` is undefined).
 */
export const bodyExample = (example: unknown): Record<string, unknown> => (example === undefined ? {} : { [BODY_EXAMPLE]: example });

/** The document with each marked operation's example moved onto its request body. */
function withBodyExamples(document: Document): Document {
  const paths: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const operations: Record<string, unknown> = {};
    for (const [method, operation] of Object.entries(item as Record<string, Record<string, unknown>>)) {
      if (!(BODY_EXAMPLE in operation)) {
        operations[method] = operation;
        continue;
      }
      const { [BODY_EXAMPLE]: example, ...rest } = operation;
      const body = rest['requestBody'] as { content?: Record<string, Record<string, unknown>> } | undefined;
      const json = body?.content?.['application/json'];
      operations[method] = json ? { ...rest, requestBody: { ...body, content: { ...body.content, 'application/json': { ...json, example } } } } : rest;
    }
    paths[path] = operations;
  }
  return { ...document, paths };
}

/** The document with the shared X-Session-Id parameter on the operations marked as honouring it. */
function withSessionHeader(document: Document): Document {
  const marker = Object.keys(HONOURS_SESSION_HEADER)[0]!;
  const parameter = { $ref: `#/components/parameters/${SESSION_HEADER}` };
  const paths: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const operations: Record<string, unknown> = {};
    for (const [method, operation] of Object.entries(item as Record<string, Record<string, unknown>>)) {
      const { [marker]: honours, ...rest } = operation;
      operations[method] = honours ? { ...rest, parameters: [parameter, ...((rest['parameters'] as unknown[]) ?? [])] } : rest;
    }
    paths[path] = operations;
  }
  return { ...document, paths };
}

function tagsIn(paths: Record<string, unknown>): { name: string }[] {
  const names = new Set<string>();
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item as Record<string, { tags?: string[] }>)) {
      for (const tag of operation.tags ?? []) names.add(tag);
    }
  }
  return [...names].map((name) => ({ name }));
}

type Operation = { post?: Record<string, unknown> };

/**
 * A domain's document as one session sees it: the contracts its hazards changed (renamed
 * parameters, stated conventions, trimmed descriptions) and the decoys they added. An operation
 * whose contract is unchanged stays exactly as in the document.
 */
export function sessionDocument(document: Document, domain: string, contracts: readonly ToolContract[]): Document {
  const original = (document.paths ?? {}) as Record<string, Operation>;
  const template = Object.values(original).find((item) => item.post?.['requestBody'])?.post;
  const changed = new Map<string, Operation>();
  // Operations the document lacks (decoys) go right after the tool listed before them.
  const added = new Map<string, string[]>();
  let previous: string | undefined;
  for (const contract of contracts) {
    const path = `/${domain}/tools/${contract.name}`;
    const existing = original[path]?.post;
    if (existing) previous = path;
    if (existing && sameContract(existing, contract)) continue;
    const base = existing ?? { ...template, operationId: contract.name, tags: [domain] };
    // Hazards change what a tool takes and how it is described, never its result: a tool keeps its
    // responses; a decoy gets the template's with its own result, described as the routes describe one.
    const responses = structuredClone((base['responses'] ?? {}) as Record<string, { content?: Record<string, { schema: JsonSchema }> }>);
    const ok = responses['200']?.content?.['application/json'];
    if (ok && !existing) ok.schema = { ...contract.output, description: RESULT };
    // The codes the template's tool declares are not a decoy's: it keeps the generic errors only.
    if (!existing) for (const status of Object.keys(responses)) if (/^4\d\d$/.test(status) && status !== '429') delete responses[status];
    changed.set(path, {
      post: {
        ...base,
        summary: contract.description.split(/(?<=\.)\s/)[0],
        description: contract.description,
        // The body as documented (with its example) while the input is unchanged; a changed one has no example that fits it.
        requestBody:
          existing && sameInput(existing, contract) ? existing['requestBody'] : { required: true, content: { 'application/json': { schema: contract.input } } },
        responses,
        ...(contract.deprecated ? { deprecated: true } : {}),
      },
    });
    if (!existing && previous !== undefined) added.set(previous, [...(added.get(previous) ?? []), path]);
  }
  const paths: Record<string, Operation> = {};
  for (const path of Object.keys(original)) {
    paths[path] = changed.get(path) ?? original[path]!;
    for (const decoy of added.get(path) ?? []) paths[decoy] = changed.get(decoy)!;
  }
  // A contract with no tool before it in the document: at the end.
  for (const path of changed.keys()) if (!(path in paths)) paths[path] = changed.get(path)!;
  return { ...document, paths };
}

type JsonSchema = Record<string, unknown>;

/** How the tool routes describe a result (server/http/tools.ts). */
const RESULT = 'The result of the call.';

function sameInput(operation: Record<string, unknown>, contract: ToolContract): boolean {
  const body = operation['requestBody'] as { content?: Record<string, { schema?: unknown }> } | undefined;
  return isDeepStrictEqual(body?.content?.['application/json']?.schema, contract.input);
}

function sameContract(operation: Record<string, unknown>, contract: ToolContract): boolean {
  return operation['description'] === contract.description && sameInput(operation, contract);
}
