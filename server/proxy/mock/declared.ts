import { isObject } from '../../../lib/object.js';
import { resolve } from '../operations.js';
import { flatten } from './schema.js';

// What an operation of a document declares of its requests: read by the mock when it is made, and by mock-check.

type Obj = Record<string, unknown>;

/** The path item's and the operation's parameters, `$ref`s followed, the operation's over the path item's (by place and name). */
export function declaredParameters(document: unknown, item: Obj, operation: Obj): Obj[] {
  const declared = new Map<string, Obj>();
  for (const raw of [...asArray(item['parameters']), ...asArray(operation['parameters'])]) {
    const param = resolve(document, raw);
    if (isObject(param) && typeof param['name'] === 'string' && typeof param['in'] === 'string') declared.set(`${param['in']} ${param['name']}`, param);
  }
  return [...declared.values()];
}

/** The JSON media type of an operation's request body (its schema, its examples), if it has one. */
export function requestMedia(document: unknown, operation: Obj): Obj | undefined {
  const body = flatten(document, operation['requestBody']);
  const content = isObject(body['content']) ? body['content'] : {};
  const json = Object.entries(content).find(([type]) => /json/i.test(type))?.[1];
  return isObject(json) ? json : undefined;
}

/** The JSON schema of an operation's request body, if it has one. */
export const requestSchema = (document: unknown, operation: Obj): unknown => requestMedia(document, operation)?.['schema'];

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
