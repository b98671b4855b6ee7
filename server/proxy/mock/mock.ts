import type { IncomingHttpHeaders } from 'node:http';
import { parseJsonText } from '../../../lib/json.js';
import { isObject } from '../../../lib/object.js';
import { deepFreeze } from '../../../lib/freeze.js';
import { Random } from '../../../lib/random.js';
import type { DatabaseTables } from '../../core/data/base.js';
import type { DomainState } from '../../core/data/domain-state.js';
import type { Change } from '../../core/data/overlay.js';
import { type Problem, problem } from '../../core/problem.js';
import type { Session } from '../../core/sessions/session.js';
import type { UpstreamAnswer } from '../forward.js';
import { MOCK_MAX_RECORDS, type MockOptions, ProxyConfigError } from '../config.js';
import { type Operation, OperationMap, type ParamPlace } from '../operations.js';
import { declaredAnswer, exampleOrGenerated, itemSchema, listAnswer, withoutReadOnly, withoutWriteOnly } from './answers.js';
import { generate, uuid } from './generate.js';
import { declaredParameters, requestSchema } from './declared.js';
import { idempotencyHeaderOf, idempotencyKeyOf, keyed } from './idempotency.js';
import { pageOf } from './paging.js';
import { filtersOf, matches, nextNumber, stamped, underParents } from './records.js';
import { type Role, type RoleOverride, roleOf, singular } from './resources.js';
import { flatten, propertiesOf, typeOf } from './schema.js';
import { coerceParameter, type FieldError, validate } from './validate.js';

/** A request to the mock, as the proxy read it. */
export interface MockRequest {
  session: Session;
  operation: Operation;
  /** Its arguments (path, query and JSON body members, as hazards left them) and where each came from. */
  args: Record<string, unknown>;
  places: ReadonlyMap<string, ParamPlace>;
  headers: IncomingHttpHeaders;
  body: Buffer | undefined;
  /** Whether the body was a JSON object, whose members are among the arguments. */
  json: boolean;
}

type Obj = Record<string, unknown>;
/** The actions that keep a resource's records. */
const KEEPING = new Set(['create', 'read', 'update', 'delete']);

/** A query parameter an operation declares: its name and its schema's default. */
type QueryParam = { name: string; default?: unknown };

/** A validated request on its way through the mock: what it does, with what, in which session. */
interface Acting {
  role: Role;
  operation: Obj;
  params: Obj;
  body: unknown;
  session: Session;
  /** Drawn from the seed, the operation and the parameters: what generated answers use. */
  random: Random;
  /** The call's number for its operation in the session. */
  call: number;
  /** The query parameters the operation declares, with their schemas' defaults. */
  query: readonly QueryParam[];
}
export type MockRecord = Record<string, unknown>;

/** The mock's answer, with what a write changed in the session's records (journaled like a tool's changes). */
export interface MockAnswer extends UpstreamAnswer {
  wrote?: { changes: readonly Change[]; revert: () => void };
  /** The idempotency key the write carried, and the call it replayed (when it wrote nothing). */
  idempotency?: { key: string; replayed?: number };
}
/** An operation as the document declares it, read once. */
interface Prepared {
  operation: Obj;
  declared: readonly Obj[];
  /** Its query parameters, with their schemas' defaults (what lists filter and page by). */
  query: readonly QueryParam[];
  /** The idempotency header a write declares, if any. */
  idempotencyHeader: string | undefined;
  role: Role;
  /** Its role was given (`x-wildtools`, or the config), not inferred. */
  overridden: boolean;
}

/**
 * An upstream served from its OpenAPI document alone: requests validated against it, answers from its
 * examples or generated from its schemas with the session's seed, and records kept per session.
 */
export class Mock {
  /** Each resource's id parameter name (from its `/things/{id}` operations). */
  private readonly idParams = new Map<string, string>();
  /** Each resource's id parameter schema: the type of the ids it makes when its records' schema has no id member. */
  private readonly idSchemas = new Map<string, unknown>();
  /** Each operation's reading of the document, by method and path. */
  private readonly operations = new Map<string, Prepared>();
  private readonly maxRecords: number;
  /** The document's operations, as the proxy names them. */
  private readonly named: readonly Operation[];
  /** The records every session starts from, by resource and id: the seed file's, or none. */
  readonly database: DatabaseTables;

  constructor(
    private readonly name: string,
    private readonly document: Obj,
    private readonly initial: Readonly<Record<string, readonly MockRecord[]>> = {},
    options: MockOptions = {},
  ) {
    this.maxRecords = options.max_records ?? MOCK_MAX_RECORDS;
    const overrides = options.operations ?? {};
    const used = new Set<string>();
    const operations = new OperationMap(document).operations;
    this.named = operations;
    for (const op of operations) {
      const key = [op.name, `${op.method} ${op.path}`].find((one) => Object.hasOwn(overrides, one));
      if (key !== undefined) used.add(key);
      this.operations.set(`${op.method} ${op.path}`, this.prepare(op, key === undefined ? undefined : overrides[key]));
    }
    const unknown = Object.keys(overrides).filter((key) => !used.has(key));
    if (unknown.length > 0)
      throw new ProxyConfigError(
        `${name}: mock.operations: no operation ${unknown.join(', ')} (operations: ${operations.map((op) => op.name).join(', ')})`,
        'mock.operations',
      );
    const all = [...this.operations.values()];
    for (const prepared of all) {
      const { role, operation } = prepared;
      // A POST below a record where the same path lists records adds one (`POST /tickets/{id}/comments`), unless told otherwise;
      // a POST at a record (`POST /pets/{id}`, whose GET reads one) does not.
      const below = role.action === 'none' && role.idParam === undefined && operationMethod(operation) === 'post';
      if (below && !prepared.overridden && this.listsAt(operation['x-path'] as string)) prepared.role = { ...role, action: 'create' };
    }
    // A GET of a collection lists records when its answer holds a list of them, or, answering no schema, when
    // other operations keep its resource; otherwise (`/health`, `/user/logout`) it is answered and keeps nothing.
    const kept = new Set([...all.filter((one) => KEEPING.has(one.role.action)).map((one) => one.role.resource), ...Object.keys(initial)]);
    for (const prepared of all)
      if (prepared.role.action === 'list' && !prepared.overridden && !this.holdsList(prepared.operation, kept.has(prepared.role.resource)))
        prepared.role = { ...prepared.role, action: 'none' };
    const resources = new Set<string>();
    for (const prepared of all) {
      const { role } = prepared;
      if (role.action === 'none') continue;
      resources.add(role.resource);
      if (role.idParam !== undefined && !this.idParams.has(role.resource)) {
        this.idParams.set(role.resource, role.idParam);
        this.idSchemas.set(role.resource, prepared.declared.find((param) => param['name'] === role.idParam)?.['schema']);
      }
    }
    const tables = new Map<string, Map<string, unknown>>([...resources].map((resource) => [resource, new Map()]));
    for (const [resource, records] of Object.entries(initial)) {
      const table = tables.get(resource) ?? new Map<string, unknown>();
      tables.set(resource, table);
      const field = this.idField(resource, undefined);
      for (const [index, record] of records.entries()) table.set(String(record[field] ?? index + 1), deepFreeze(structuredClone(record)));
      if (table.size > this.maxRecords)
        throw new ProxyConfigError(`${name}: mock: the seed holds ${table.size} ${resource}, above mock.max_records (${this.maxRecords})`, 'mock.max_records');
    }
    this.database = { tables };
  }

  /** What the mock makes of each operation of its document: the resource, action, id parameter and parents it acts on. */
  roles(): { name: string; method: string; path: string; role: Role }[] {
    return this.named.map((op) => {
      const { role } = this.prepared(op);
      return {
        name: op.name,
        method: op.method,
        path: op.path,
        role,
      };
    });
  }

  answer(request: MockRequest): MockAnswer {
    const { operation, declared, query, idempotencyHeader, role } = this.prepared(request.operation);
    const errors: FieldError[] = [];
    const params = this.parameters(declared, request, errors);
    const body = this.body(operation, request, errors);
    if (errors.length > 0) return invalid(errors);
    const random = new Random(`${request.session.seed}\u001f${this.name}\u001f${request.operation.name}\u001f${JSON.stringify(params)}`);
    const call = request.session.callCount(this.name, request.operation.name);
    const key = idempotencyKeyOf(idempotencyHeader, request.headers);
    if (key === undefined) return this.act({ role, operation, params, body, session: request.session, random, call, query });
    const known = keyed(request.session, this.name, request.operation.name, request.args, key);
    if (known && 'refused' in known) return { ...problemAnswer(known.refused), idempotency: { key } };
    if (known) {
      const status = declaredAnswer(this.document, operation, role.action === 'create' ? 201 : 200).status;
      return { ...jsonAnswer(status, known.result), idempotency: { key, replayed: known.replayed } };
    }
    return { ...this.act({ role, operation, params, body, session: request.session, random, call, query }), idempotency: { key } };
  }

  private act(request: Acting): MockAnswer {
    const { role, operation, params, body, session, random, call, query } = request;
    const state = session.domain(this.name);
    const records = state.tables[role.resource];
    const missingParent = role.parents.find((parent) => {
      const parents = state.tables[parent.resource];
      return parents !== undefined && parents.get(String(params[parent.param])) === undefined;
    });
    if (missingParent && role.action !== 'none') return this.notFound(missingParent.resource, params[missingParent.param], missingParent.param);
    const id = role.idParam === undefined ? undefined : String(params[role.idParam]);
    const held = id === undefined ? undefined : (records?.get(id) as MockRecord | undefined);
    const found = held && underParents(held, role.parents, params) ? held : undefined;
    switch (role.action) {
      case 'create': {
        const declared = declaredAnswer(this.document, operation, 201);
        const schema = declared.schema ?? requestSchema(this.document, operation);
        const ids = records ? Array.from(records.entries(), ([key]) => key) : [];
        if (ids.length >= this.maxRecords)
          return problemAnswer(
            problem(403, 'quota_exceeded', `This session holds ${ids.length} ${role.resource}, the most it may (mock.max_records); delete some or reset it.`),
          );
        const number = nextNumber(ids);
        // Drawn per call (not per number alone): a record made after the last one was deleted is another record.
        const drawn = new Random(`${session.seed}\u001f${this.name}\u001f${role.resource}\u001f${number}\u001f${call}`);
        const base = generate(this.document, schema, drawn);
        const given = this.given(operation, schema, body);
        const parents = Object.fromEntries(role.parents.map((parent) => [parent.field, params[parent.param]]));
        const record = stamped(this.document, schema, { ...(isObject(base) ? base : {}), ...given, ...parents }, session.clock.now(), true);
        const field = this.idField(role.resource, schema);
        if (given[field] === undefined) record[field] = this.newId(schema, field, role.resource, number, drawn);
        else if (records?.get(String(given[field])) !== undefined)
          return problemAnswer(problem(409, 'already_exists', `${singular(role.resource)} '${String(given[field])}' already exists.`, { field }));
        const wrote = write(state, (tables) => tables[role.resource]!.put(String(record[field]), record));
        return { ...jsonAnswer(declared.status, withoutWriteOnly(this.document, schema, record)), wrote };
      }
      case 'list': {
        const declared = declaredAnswer(this.document, operation, 200);
        const item = itemSchema(this.document, declared.schema);
        const names = query.map((param) => param.name);
        const filters = filtersOf(params, names, this.document, item);
        const listed = [...(records?.values() ?? [])].filter(
          (record) => underParents(record as MockRecord, role.parents, params) && matches(record as MockRecord, filters),
        ) as MockRecord[];
        const field = this.idField(role.resource, item);
        const errors: FieldError[] = [];
        const page = pageOf(
          params,
          query,
          listed.map((record) => String(record[field])),
          errors,
        );
        if (errors.length > 0) return invalid(errors);
        const items = listed.map((record) => withoutWriteOnly(this.document, item, record));
        return jsonAnswer(declared.status, listAnswer(this.document, declared.schema, items, random, page));
      }
      case 'read':
      case 'update':
      case 'delete': {
        if (!found) return this.notFound(role.resource, id, role.idParam);
        const declared = declaredAnswer(this.document, operation, role.action === 'delete' ? 204 : 200);
        let record = found;
        let wrote: MockAnswer['wrote'];
        if (role.action === 'update') {
          const given = this.given(operation, declared.schema, body);
          const field = this.idField(role.resource, declared.schema);
          const kept = operationMethod(operation) === 'put' ? keptReadOnly(this.document, declared.schema, found) : found;
          // A child stays under its parents (a PUT keeps only readOnly members, which its parent's id rarely is).
          const parents = Object.fromEntries(role.parents.map((parent) => [parent.field, found[parent.field]]));
          const changed = stamped(this.document, declared.schema, { ...kept, ...given, ...parents, [field]: found[field] }, session.clock.now(), false);
          record = changed;
          wrote = write(state, (tables) => tables[role.resource]!.put(id!, changed));
        }
        if (role.action === 'delete') wrote = write(state, (tables) => tables[role.resource]!.remove(id!));
        if (declared.status === 204) return { status: 204, headers: {}, body: Buffer.alloc(0), ...(wrote ? { wrote } : {}) };
        return { ...jsonAnswer(declared.status, withoutWriteOnly(this.document, declared.schema, record)), ...(wrote ? { wrote } : {}) };
      }
      default: {
        const declared = declaredAnswer(this.document, operation, 200);
        if (declared.status === 204) return { status: 204, headers: {}, body: Buffer.alloc(0) };
        return jsonAnswer(declared.status, withoutWriteOnly(this.document, declared.schema, exampleOrGenerated(this.document, declared, random)));
      }
    }
  }

  private notFound(resource: string, id: unknown, param: string | undefined): MockAnswer {
    return problemAnswer(problem(404, 'not_found', `No ${singular(resource)} '${String(id)}'.`, param === undefined ? {} : { field: param }));
  }

  /** Whether a list operation's answer holds a list (`GET /health` does not: it lists no resource). */
  /** Whether a GET's answer holds a list of records; `unstated`: what an answer of no schema is taken for. */
  private holdsList(operation: Obj, unstated: boolean): boolean {
    const schema = declaredAnswer(this.document, operation, 200).schema;
    return schema === undefined ? unstated : itemSchema(this.document, schema) !== undefined;
  }

  /** A request body's members the record takes: not those the request's or the record's schema marks `readOnly`. */
  private given(operation: Obj, recordSchema: unknown, body: unknown): MockRecord {
    if (!isObject(body)) return {};
    return withoutReadOnly(this.document, recordSchema, withoutReadOnly(this.document, requestSchema(this.document, operation), body));
  }

  /** The member of a record that holds its id: the id parameter's name when records have such a member, else `id`. */
  private idField(resource: string, schema: unknown): string {
    const param = this.idParams.get(resource);
    if (param === undefined) return 'id';
    if (schema === undefined) return Object.hasOwn(this.initial[resource]?.[0] ?? {}, param) ? param : 'id';
    return Object.hasOwn(propertiesOf(flatten(this.document, itemOrSelf(this.document, schema))), param) ? param : 'id';
  }

  private newId(schema: unknown, field: string, resource: string, number: number, random: Random): unknown {
    const member = flatten(this.document, propertiesOf(flatten(this.document, schema))[field] ?? this.idSchemas.get(resource));
    if (typeOf(member) === 'integer' || typeOf(member) === 'number') return number;
    if (member['format'] === 'uuid') return uuid(random);
    return `${singular(resource)}_${number}`;
  }

  /** An operation as the document declares it (read when the mock is made; one the map does not know, at its first call). */
  private prepared(op: Operation): Prepared {
    const key = `${op.method} ${op.path}`;
    const prepared = this.operations.get(key) ?? this.prepare(op, undefined);
    this.operations.set(key, prepared);
    return prepared;
  }

  /** What an operation reads of the document: its operation object, its declared parameters ($refs resolved), its role. */
  private prepare(op: Operation, override: RoleOverride | undefined): Prepared {
    const item = this.pathItem(op.path);
    const found = isObject(item[op.method.toLowerCase()]) ? (item[op.method.toLowerCase()] as Obj) : {};
    const operation: Obj = { ...found, 'x-method': op.method.toLowerCase(), 'x-path': op.path };
    const declared = declaredParameters(this.document, item, operation);
    const query = declared
      .filter((param) => param['in'] === 'query')
      .map((param) => ({ name: param['name'] as string, default: flatten(this.document, param['schema'])['default'] }));
    const overridden = override !== undefined || isObject(found['x-wildtools']);
    const idempotencyHeader = op.writes ? idempotencyHeaderOf(declared) : undefined;
    return { operation, declared, query, idempotencyHeader, role: roleOf(op.method, op.path, operation, override), overridden };
  }

  private pathItem(path: string): Obj {
    const paths = isObject(this.document['paths']) ? this.document['paths'] : {};
    return isObject(paths[path]) ? paths[path] : {};
  }

  /** Whether a path's GET lists records. */
  private listsAt(path: string): boolean {
    const get = this.pathItem(path)['get'];
    return isObject(get) && this.holdsList(get, false);
  }

  /** The declared path, query and header parameters, read as their schemas say and validated. */
  private parameters(declared: readonly Obj[], request: MockRequest, errors: FieldError[]): Obj {
    const values: Obj = { ...Object.fromEntries(Object.entries(request.args).filter(([name]) => request.places.get(name) === 'path')) };
    for (const param of declared) {
      const name = param['name'] as string;
      const place = param['in'];
      const raw = place === 'header' ? request.headers[name.toLowerCase()] : place === 'path' || place === 'query' ? request.args[name] : undefined;
      if (place === 'cookie') continue;
      if (raw === undefined || raw === '') {
        if (param['required'] === true || place === 'path') errors.push({ field: name, message: 'is required' });
        continue;
      }
      const value = coerceParameter(this.document, param['schema'], raw);
      validate(this.document, param['schema'], value, name, errors);
      values[name] = value;
    }
    return values;
  }

  /** The JSON body, validated against the request body's schema: the members the arguments carry, or the body as sent. */
  private body(operation: Obj, request: MockRequest, errors: FieldError[]): unknown {
    const before = errors.length;
    const declared = flatten(this.document, operation['requestBody']);
    const schema = requestSchema(this.document, operation);
    let body: unknown;
    if (request.json) {
      // A member a hazard renamed back (spec_drift) has no place of its own: the document's, as for a forwarded call.
      const declared = new Map((request.operation.params ?? []).map((param) => [param.name, param.in]));
      body = Object.fromEntries(Object.entries(request.args).filter(([name]) => (request.places.get(name) ?? declared.get(name) ?? 'body') === 'body'));
    } else if (request.body && request.body.length > 0) {
      try {
        body = parseJsonText(request.body.toString('utf8'));
      } catch {
        errors.push({ field: 'body', message: 'must be JSON' });
        return undefined;
      }
    }
    if (body === undefined) {
      if (declared['required'] === true) errors.push({ field: 'body', message: 'is required' });
      return undefined;
    }
    if (schema !== undefined) validate(this.document, schema, body, '', errors);
    for (const error of errors.slice(before)) if (error.field === '') error.field = 'body';
    return body;
  }
}

/** Runs a write on the session's records: all of it or nothing, with its changes for the journal. */
function write(state: DomainState, work: (tables: DomainState['tables']) => void): NonNullable<MockAnswer['wrote']> {
  const { changes, revert } = state.transact(work);
  return { changes, revert };
}

/** The members of a record a PUT keeps: those the server sets (`readOnly`). */
function keptReadOnly(document: unknown, schema: unknown, record: MockRecord): MockRecord {
  const properties = propertiesOf(flatten(document, schema));
  return Object.fromEntries(Object.entries(record).filter(([name]) => flatten(document, properties[name])['readOnly'] === true));
}

const itemOrSelf = (document: unknown, schema: unknown): unknown => {
  const flat = flatten(document, schema);
  return typeOf(flat) === 'array' ? flat['items'] : schema;
};

const operationMethod = (operation: Obj): unknown => operation['x-method'];

const jsonAnswer = (status: number, value: unknown): UpstreamAnswer => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: Buffer.from(JSON.stringify(value ?? null)),
});

/** A request the document does not allow: a 400 naming the first field, with every error. */
function invalid(errors: readonly FieldError[]): MockAnswer {
  const detail = errors.map((e) => `${e.field}: ${e.message}`).join('; ');
  return problemAnswer(problem(400, 'invalid_input', `Invalid request: ${detail}`, { field: errors[0]!.field, errors }));
}

const problemAnswer = (body: Problem): UpstreamAnswer => ({
  status: body.status,
  headers: { 'content-type': 'application/problem+json; charset=utf-8' },
  body: Buffer.from(JSON.stringify(body)),
});
