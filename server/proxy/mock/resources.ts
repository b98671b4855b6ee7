import { isObject } from '../../../lib/object.js';

export type Action = 'create' | 'read' | 'list' | 'update' | 'delete' | 'none';
export const ACTIONS: readonly Action[] = ['create', 'read', 'list', 'update', 'delete', 'none'];

/** A record's parent in the path (`/tickets/{ticket_id}/comments`): the parameter naming it and the member that holds it. */
export interface Parent {
  param: string;
  /** The parent's resource (`tickets`). */
  resource: string;
  /** The member of a child record that holds the parent's id: the parameter's name, `ticket_id` for a bare `{id}`. */
  field: string;
}

/** What an operation does to the mock's state: which resource, which action, and the path parameter naming a record. */
export interface Role {
  resource: string;
  action: Action;
  /** The path parameter that holds a record's id (read, update, delete). */
  idParam?: string;
  /** The records above it in the path: a child is created under them, listed and found only with them. */
  parents: Parent[];
}

/** An override of the inference (`x-wildtools` on an operation, or the config's `mock.operations`). */
export interface RoleOverride {
  resource?: string;
  action?: Action;
  id?: string;
}

/**
 * The role of an operation, read from its path as resources: `POST /things` creates, `GET /things` lists,
 * `GET|PUT|PATCH|DELETE /things/{id}` read, change or remove one, and the same below a record
 * (`/things/{thing_id}/parts`) for its children. `x-wildtools: {resource, action, id}` on the operation, then
 * the config's override, take precedence; any other shape (`POST /things/{id}/archive`) is `none`: answered,
 * nothing kept (the mock makes a POST below a record a create when the same path lists records).
 */
export function roleOf(method: string, path: string, operation: Record<string, unknown>, override: RoleOverride = {}): Role {
  const segments = path.split('/').filter(Boolean);
  const lastParam = paramName(segments.at(-1) ?? '');
  const inferred = infer(method.toUpperCase(), segments, lastParam);
  const extension = isObject(operation['x-wildtools']) ? (operation['x-wildtools'] as RoleOverride) : {};
  const given = { ...overrideOf(extension), ...overrideOf(override) };
  const resource = given.resource ?? inferred.resource;
  const idParam = given.id ?? (given.action !== undefined && lastParam !== undefined ? lastParam : inferred.idParam);
  const parents = parentsOf(segments).filter((parent) => parent.param !== idParam);
  return { resource, action: given.action ?? inferred.action, ...(idParam === undefined ? {} : { idParam }), parents };
}

function overrideOf(value: RoleOverride): RoleOverride {
  return {
    ...(typeof value.resource === 'string' ? { resource: value.resource } : {}),
    ...(ACTIONS.includes(value.action as Action) ? { action: value.action } : {}),
    ...(typeof value.id === 'string' ? { id: value.id } : {}),
  };
}

const paramName = (segment: string): string | undefined => /^\{(.+)\}$/.exec(segment)?.[1];

function infer(method: string, segments: string[], lastParam: string | undefined): Omit<Role, 'parents'> {
  if (lastParam !== undefined) {
    const resource = segments.at(-2) ?? '';
    if (!resource || paramName(resource) !== undefined) return { resource: lastParam, action: 'none' };
    const action = ({ GET: 'read', PUT: 'update', PATCH: 'update', DELETE: 'delete' } as const)[method as 'GET'] ?? 'none';
    return { resource, action, idParam: lastParam };
  }
  const resource = segments.at(-1) ?? '';
  const underRecord = segments.length >= 2 && paramName(segments.at(-2)!) !== undefined;
  // A verb after a record (`/things/{id}/archive`) is an action on it, not a collection: only GET reads it as one.
  if (method === 'GET' && resource) return { resource, action: 'list' };
  if (method === 'POST' && resource && !underRecord) return { resource, action: 'create' };
  return { resource, action: 'none' };
}

/** Every `{param}` that follows a literal segment, but the last segment's: the records the path goes through. */
function parentsOf(segments: readonly string[]): Parent[] {
  const parents: Parent[] = [];
  for (let i = 1; i < segments.length - 1; i++) {
    const param = paramName(segments[i]!);
    const resource = segments[i - 1]!;
    if (param === undefined || paramName(resource) !== undefined) continue;
    parents.push({ param, resource, field: param === 'id' ? `${singular(resource)}_id` : param });
  }
  return parents;
}

/** A resource's name for one record: `tickets` → `ticket`, `categories` → `category`. */
export const singular = (resource: string): string =>
  resource
    .replace(/ies$/, 'y')
    .replace(/(s|x|ch|sh)es$/, '$1')
    .replace(/([^s])s$/, '$1');
