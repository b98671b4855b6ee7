import { isObject } from '../../lib/object.js';
// Which operation a proxied request is: by the upstream's OpenAPI document (method + path template →
// operationId), or, without one, by method and path pattern (id-like segments folded), so that hazard flags
// and the journal name it like a tool.

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** Where an argument of a proxied call travels. */
export type ParamPlace = 'path' | 'query' | 'body';

/** A parameter the document declares (headers and cookies are not arguments: they pass through). */
export interface Parameter {
  name: string;
  in: ParamPlace;
  required: boolean;
  schema: Record<string, unknown>;
  description?: string;
}

export interface Operation {
  /** The operationId, or a name made of the method and the path pattern. */
  name: string;
  method: string;
  /** The path template (`/contacts/{id}`), or the pattern seen (`/contacts/{id}` for `/contacts/c_001`). */
  path: string;
  /** Whether the operation may change the upstream's state (every method but GET, HEAD, OPTIONS). */
  writes: boolean;
  /** The document's summary and description of it (empty without a document). */
  description?: string;
  /** Its parameters and JSON body members, as the document declares them (path parameters always). */
  params?: readonly Parameter[];
}

interface Route extends Operation {
  pattern: RegExp;
  /** A segment holds a parameter beside other text (`{name}.{format}`): the pattern only narrows it down. */
  partial: boolean;
}

/** The operations of an OpenAPI document, matched in order of specificity (literal segments before parameters). */
export class OperationMap {
  private readonly routes: Route[];

  constructor(document: unknown) {
    const paths = isObject(document) && isObject(document['paths']) ? document['paths'] : {};
    const routes: Route[] = [];
    for (const [path, item] of Object.entries(paths)) {
      if (!isObject(item)) continue;
      for (const method of METHODS) {
        const operation = item[method];
        if (!isObject(operation)) continue;
        const id = typeof operation['operationId'] === 'string' ? operation['operationId'] : patternName(method, path);
        const description = [operation['summary'], operation['description']].filter((text) => typeof text === 'string').join('. ');
        const params = declaredParameters(document, item, operation, path);
        routes.push({
          name: toolWord(id),
          method: method.toUpperCase(),
          path,
          writes: writes(method),
          pattern: templatePattern(path),
          partial: /[^/]\{|\}[^/]/.test(path),
          description,
          params,
        });
      }
    }
    // A literal segment wins over a parameter at the same place (`/contacts/search` before `/contacts/{id}`).
    this.routes = routes.sort((a, b) => specificity(b.path) - specificity(a.path));
  }

  /** Operations declared without a document: name → "METHOD /path/{param}". */
  static declared(operations: Readonly<Record<string, string>>): OperationMap {
    const paths: Record<string, Record<string, unknown>> = {};
    for (const [name, line] of Object.entries(operations)) {
      const [method, path] = line.split(' ') as [string, string];
      paths[path] ??= {};
      paths[path][method.toLowerCase()] = { operationId: name };
    }
    return new OperationMap({ paths });
  }

  get operations(): readonly Operation[] {
    return this.routes.map(({ pattern: _pattern, partial: _partial, ...operation }) => operation);
  }

  /** The operation of this name, if any. */
  named(name: string): Operation | undefined {
    return this.operations.find((operation) => operation.name === name);
  }

  /** The operation a request is, or undefined when the document has none for it. */
  match(method: string, path: string): Operation | undefined {
    const upper = method.toUpperCase();
    // A segment with a parameter inside (`{name}.{format}`) matches loosely in the pattern, then exactly here.
    const found = this.routes.find(
      (route) => route.method === upper && route.pattern.test(path) && (!route.partial || pathValues(route.path, path) !== undefined),
    );
    if (!found) return undefined;
    const { pattern: _pattern, partial: _partial, ...operation } = found;
    return operation;
  }
}

/** An operation without a document: the method and the path with its id-like segments folded into `{id}`. */
export function patternOperation(method: string, path: string): Operation {
  let ids = 0;
  const pattern = `/${path
    .split('/')
    .filter(Boolean)
    .map((segment) => (idLike(segment) ? (ids++ === 0 ? '{id}' : `{id${ids}}`) : segment))
    .join('/')}`;
  return { name: patternName(method, pattern), method: method.toUpperCase(), path: pattern, writes: writes(method) };
}

/** The values of a template's parameters in a path that matches it (`{id: 'c_001'}`); undefined when it does not match. */
export function pathValues(template: string, path: string): Record<string, string> | undefined {
  const names = template.split('/');
  const values = path.replace(/\/$/, '').split('/');
  if (names.length !== values.length) return undefined;
  const out: Record<string, string> = {};
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const param = /^\{([^}]+)\}$/.exec(name);
    if (param) out[param[1]!] = decoded(values[i]!);
    else if (name.includes('{')) {
      // Parameters inside a segment (`download{extension}`, `{name}.{format}`).
      const found = segmentValues(name, values[i]!);
      if (!found) return undefined;
      for (const [one, value] of Object.entries(found)) out[one] = decoded(value);
    } else if (name !== values[i]) return undefined;
  }
  return out;
}

function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * The values of the parameters inside one segment (`{name}.{format}` of `report.tar.gz`: name `report`, format
 * `tar.gz`), each at least one character, each ending at the first place its following literal text fits (the last
 * literal at the segment's end): found in one pass, however the segment is written.
 */
function segmentValues(template: string, value: string): Record<string, string> | undefined {
  const parts = template.split(/(\{[^}]+\})/).filter(Boolean);
  const out: Record<string, string> = {};
  let at = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const param = /^\{([^}]+)\}$/.exec(part)?.[1];
    if (param === undefined) {
      if (!value.startsWith(part, at)) return undefined;
      at += part.length;
      continue;
    }
    const next = parts[i + 1];
    let end: number;
    if (next === undefined) end = value.length;
    else if (next.startsWith('{')) end = at + 1;
    else if (i + 1 === parts.length - 1) end = value.endsWith(next) ? value.length - next.length : -1;
    else end = value.indexOf(next, at + 1);
    if (end <= at) return undefined;
    out[param] = value.slice(at, end);
    at = end;
  }
  return at === value.length ? out : undefined;
}

/** A template filled with values (each encoded as one segment). */
export const fillPath = (template: string, values: Readonly<Record<string, unknown>>): string =>
  template.replace(/\{([^}]+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? encodeURIComponent(String(values[name])) : whole));

/** Path parameters (the path item's and the operation's), query parameters and JSON body members. */
function declaredParameters(document: unknown, item: Record<string, unknown>, operation: Record<string, unknown>, path: string): Parameter[] {
  const params = new Map<string, Parameter>();
  for (const raw of [...asArray(item['parameters']), ...asArray(operation['parameters'])]) {
    const param = resolve(document, raw);
    if (!isObject(param) || typeof param['name'] !== 'string' || (param['in'] !== 'path' && param['in'] !== 'query')) continue;
    params.set(param['name'], {
      name: param['name'],
      in: param['in'],
      required: param['required'] === true || param['in'] === 'path',
      schema: isObject(param['schema']) ? (resolve(document, param['schema']) as Record<string, unknown>) : {},
      ...(typeof param['description'] === 'string' ? { description: param['description'] } : {}),
    });
  }
  for (const match of path.matchAll(/\{([^}]+)\}/g)) {
    if (!params.has(match[1]!)) params.set(match[1]!, { name: match[1]!, in: 'path', required: true, schema: { type: 'string' } });
  }
  const body = resolve(document, operation['requestBody']);
  const content = isObject(body) && isObject(body['content']) ? body['content'] : {};
  const json = Object.entries(content).find(([type]) => type.includes('json'))?.[1];
  const schema = isObject(json) ? resolve(document, json['schema']) : undefined;
  if (isObject(schema) && isObject(schema['properties'])) {
    const required = new Set(asArray(schema['required']));
    for (const [name, raw] of Object.entries(schema['properties'])) {
      if (params.has(name)) continue;
      const property = resolve(document, raw);
      params.set(name, {
        name,
        in: 'body',
        required: required.has(name),
        schema: isObject(property) ? property : {},
        ...(isObject(property) && typeof property['description'] === 'string' ? { description: property['description'] } : {}),
      });
    }
  }
  return [...params.values()];
}

/**
 * A local `$ref` (`#/components/...`) followed, a few levels deep; anything else as it is. Members beside the
 * `$ref` (OpenAPI 3.1 allows them: `{$ref: …, example: open}`) are kept over the target's.
 */
export function resolve(document: unknown, value: unknown, depth = 0): unknown {
  if (!isObject(value) || typeof value['$ref'] !== 'string' || depth > 8) return value;
  const { $ref: ref, ...siblings } = value as { $ref: string } & Record<string, unknown>;
  if (!ref.startsWith('#/')) return value;
  let target: unknown = document;
  for (const part of ref.slice(2).split('/')) {
    const key = part.replaceAll('~1', '/').replaceAll('~0', '~');
    target = isObject(target) && Object.hasOwn(target, key) ? target[key] : undefined;
  }
  const resolved = resolve(document, target, depth + 1);
  return Object.keys(siblings).length > 0 && isObject(resolved) ? { ...resolved, ...siblings } : resolved;
}

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

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
export const toolWord = (name: string): string =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '') || 'operation';

const writes = (method: string) => !['get', 'head', 'options'].includes(method.toLowerCase());

function templatePattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => (segment.includes('{') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/** How specific a template is: literal segments first, then segments with text beside a parameter (`{name}.{format}`), then length. */
const specificity = (path: string) =>
  path.split('/').reduce((sum, segment) => sum + (!segment ? 0 : !segment.includes('{') ? 100 : /^\{[^}]*\}$/.test(segment) ? 0 : 50), 0) +
  path.split('/').length;
