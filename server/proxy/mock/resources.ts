import { isObject } from '../../../lib/object.js';

export type Action = 'create' | 'read' | 'list' | 'update' | 'delete' | 'none';

/** What an operation does to the mock's state: which resource, which action, and the path parameter naming a record. */
export interface Role {
  resource: string;
  action: Action;
  /** The path parameter that holds a record's id (read, update, delete). */
  idParam?: string;
}

const ACTIONS = new Set<Action>(['create', 'read', 'list', 'update', 'delete', 'none']);

/**
 * The role of an operation, read from its path as resources: `POST /things` creates, `GET /things` lists,
 * `GET|PUT|PATCH|DELETE /things/{id}` read, change or remove one. `x-wildtools: {resource, action}` on the
 * operation overrides it; any other shape (`POST /things/{id}/archive`) is `none`: answered, nothing kept.
 */
export function roleOf(method: string, path: string, operation: Record<string, unknown>): Role {
  const segments = path.split('/').filter(Boolean);
  const last = segments.at(-1) ?? '';
  const lastParam = /^\{(.+)\}$/.exec(last)?.[1];
  const inferred = infer(method.toUpperCase(), segments, lastParam);
  const extension = operation['x-wildtools'];
  if (!isObject(extension)) return inferred;
  const action = ACTIONS.has(extension['action'] as Action) ? (extension['action'] as Action) : inferred.action;
  const resource = typeof extension['resource'] === 'string' ? extension['resource'] : inferred.resource;
  const idParam = typeof extension['id'] === 'string' ? extension['id'] : (lastParam ?? inferred.idParam);
  return { resource, action, ...(idParam === undefined ? {} : { idParam }) };
}

function infer(method: string, segments: string[], lastParam: string | undefined): Role {
  if (lastParam !== undefined) {
    const resource = segments.at(-2) ?? '';
    if (!resource || /^\{.*\}$/.test(resource)) return { resource: lastParam, action: 'none' };
    const action = ({ GET: 'read', PUT: 'update', PATCH: 'update', DELETE: 'delete' } as const)[method as 'GET'] ?? 'none';
    return { resource, action, idParam: lastParam };
  }
  const resource = segments.at(-1) ?? '';
  const underRecord = segments.length >= 2 && /^\{.*\}$/.test(segments.at(-2)!);
  // A verb after a record (`/things/{id}/archive`) is an action on it, not a collection: only GET reads it as one.
  if (method === 'GET' && resource) return { resource, action: 'list' };
  if (method === 'POST' && resource && !underRecord) return { resource, action: 'create' };
  return { resource, action: 'none' };
}
