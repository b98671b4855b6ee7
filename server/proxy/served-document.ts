import { documentSource } from './config.js';
import type { ToolContract } from '../../hazards/kind.js';
import { isObject } from '../../lib/object.js';
import { resolve } from './operations.js';
import type { HttpProxy } from './upstream.js';

type Obj = Record<string, unknown>;

/**
 * The upstream's OpenAPI document as a session sees it through the proxy: its server is the proxy, and an
 * operation whose contract a hazard changed (a renamed parameter, a documented rule) shows the change.
 */
export function servedDocument(proxy: HttpProxy, base: string, changed: readonly ToolContract[] | null): Obj {
  const document = structuredClone(proxy.document!) as Obj;
  const source = proxy.mock
    ? `wildtools mock of ${documentSource(proxy.config.openapi)}`
    : proxy.config.replay === undefined
      ? `wildtools proxy of ${proxy.config.upstream}`
      : `wildtools proxy of the recording ${proxy.config.replay}`;
  document['servers'] = [{ url: base, description: source }];
  if (!changed) return document;
  const canonical = new Map(proxy.contracts().map((contract) => [contract.name, contract]));
  for (const contract of changed) {
    const before = canonical.get(contract.name);
    const tool = proxy.tool(contract.name);
    if (!before || !tool || JSON.stringify(before) === JSON.stringify(contract)) continue;
    const operation = operationIn(document, tool.operation.path, tool.operation.method);
    if (!operation) continue;
    operation['description'] = contract.description;
    const renames = renamesBetween(before.input, contract.input);
    for (const [from, to] of renames) renameIn(document, operation, from, to);
    describeParameters(document, operation, contract.input);
  }
  return document;
}

function operationIn(document: Obj, path: string, method: string): Obj | undefined {
  const paths = isObject(document['paths']) ? document['paths'] : {};
  const item = paths[path];
  const operation = isObject(item) ? item[method.toLowerCase()] : undefined;
  return isObject(operation) ? operation : undefined;
}

/** Parameters present before and gone after, paired with those new after, in order. */
function renamesBetween(before: Obj, after: Obj): [string, string][] {
  const names = (schema: Obj) => Object.keys(isObject(schema['properties']) ? schema['properties'] : {});
  const gone = names(before).filter((name) => !names(after).includes(name));
  const added = names(after).filter((name) => !names(before).includes(name));
  return gone.map((name, i) => [name, added[i]!] as [string, string]).filter(([, to]) => to !== undefined);
}

/** Renames a query parameter (inlined from its $ref) or a JSON body member (its schema inlined). */
function renameIn(document: Obj, operation: Obj, from: string, to: string): void {
  const params = Array.isArray(operation['parameters']) ? operation['parameters'] : [];
  operation['parameters'] = params.map((raw) => {
    const param = resolve(document, raw);
    return isObject(param) && param['name'] === from ? { ...param, name: to } : raw;
  });
  const body = resolve(document, operation['requestBody']);
  if (!isObject(body) || !isObject(body['content'])) return;
  const content: Obj = {};
  for (const [type, media] of Object.entries(body['content'])) {
    const schema = isObject(media) ? resolve(document, media['schema']) : undefined;
    if (!isObject(schema) || !isObject(schema['properties']) || !(from in schema['properties'])) {
      content[type] = media;
      continue;
    }
    const properties = Object.fromEntries(Object.entries(schema['properties']).map(([name, value]) => [name === from ? to : name, value]));
    const required = Array.isArray(schema['required']) ? schema['required'].map((name) => (name === from ? to : name)) : undefined;
    content[type] = { ...(media as Obj), schema: { ...schema, properties, ...(required ? { required } : {}) } };
  }
  operation['requestBody'] = { ...body, content };
}

/** Parameter descriptions as the contract states them (a documented rule). */
function describeParameters(document: Obj, operation: Obj, input: Obj): void {
  const properties = isObject(input['properties']) ? input['properties'] : {};
  const params = Array.isArray(operation['parameters']) ? operation['parameters'] : [];
  operation['parameters'] = params.map((raw) => {
    const param = resolve(document, raw);
    if (!isObject(param) || typeof param['name'] !== 'string') return raw;
    const described = properties[param['name']];
    const description = isObject(described) ? described['description'] : undefined;
    return typeof description === 'string' && description !== param['description'] ? { ...param, description } : raw;
  });
}
