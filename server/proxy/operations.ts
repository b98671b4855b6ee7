// Which operation a proxied request is: by the upstream's OpenAPI document (method + path template →
// operationId), or, without one, by method and path pattern (id-like segments folded), so that hazard flags
// and the journal name it like a tool.

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

export interface Operation {
  /** The operationId, or a name made of the method and the path pattern. */
  name: string;
  method: string;
  /** The path template (`/contacts/{id}`), or the pattern seen (`/contacts/{id}` for `/contacts/c_001`). */
  path: string;
  /** Whether the operation may change the upstream's state (every method but GET, HEAD, OPTIONS). */
  writes: boolean;
}

interface Route extends Operation {
  pattern: RegExp;
}

/** The operations of an OpenAPI document, matched in order of specificity (literal segments before parameters). */
export class OperationMap {
  private readonly routes: Route[];

  constructor(document: unknown) {
    const paths = isRecord(document) && isRecord(document['paths']) ? document['paths'] : {};
    const routes: Route[] = [];
    for (const [path, item] of Object.entries(paths)) {
      if (!isRecord(item)) continue;
      for (const method of METHODS) {
        const operation = item[method];
        if (!isRecord(operation)) continue;
        const id = typeof operation['operationId'] === 'string' ? operation['operationId'] : patternName(method, path);
        routes.push({ name: toolWord(id), method: method.toUpperCase(), path, writes: writes(method), pattern: templatePattern(path) });
      }
    }
    // A literal segment wins over a parameter at the same place (`/contacts/search` before `/contacts/{id}`).
    this.routes = routes.sort((a, b) => specificity(b.path) - specificity(a.path));
  }

  get operations(): readonly Operation[] {
    return this.routes.map(({ pattern: _pattern, ...operation }) => operation);
  }

  /** The operation a request is, or undefined when the document has none for it. */
  match(method: string, path: string): Operation | undefined {
    const upper = method.toUpperCase();
    const found = this.routes.find((route) => route.method === upper && route.pattern.test(path));
    if (!found) return undefined;
    const { pattern: _pattern, ...operation } = found;
    return operation;
  }
}

/** An operation without a document: the method and the path with its id-like segments folded into `{id}`. */
export function patternOperation(method: string, path: string): Operation {
  const pattern = `/${path
    .split('/')
    .filter(Boolean)
    .map((segment) => (idLike(segment) ? '{id}' : segment))
    .join('/')}`;
  return { name: patternName(method, pattern), method: method.toUpperCase(), path: pattern, writes: writes(method) };
}

/** A segment that names a record rather than a collection: it holds a digit, or is a long opaque token. */
const idLike = (segment: string) => /\d/.test(segment) || segment.length >= 24;

function patternName(method: string, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .map((segment) => (/^\{.*\}$/.test(segment) ? segment.slice(1, -1) : segment));
  return toolWord([method.toLowerCase(), ...words].join('_'));
}

/** A name as hazard flags and listings take it: lower-case letters, digits and "_". */
const toolWord = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '') || 'operation';

const writes = (method: string) => !['get', 'head', 'options'].includes(method.toLowerCase());

function templatePattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => (/^\{[^}]+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

const specificity = (path: string) => path.split('/').filter((segment) => segment && !/^\{.*\}$/.test(segment)).length * 100 + path.split('/').length;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
