import type { FastifyInstance } from 'fastify';
import { isObject } from '../lib/object.js';
import { Random } from '../lib/random.js';
import { buildApp } from '../server/app.js';
import { parseUpstream } from '../server/proxy/config.js';
import { mediaExample } from '../server/proxy/mock/answers.js';
import { declaredParameters, requestMedia } from '../server/proxy/mock/declared.js';
import { generate } from '../server/proxy/mock/generate.js';
import type { Role } from '../server/proxy/mock/resources.js';
import { alternatives, flatten, propertiesOf } from '../server/proxy/mock/schema.js';
import { fillPath } from '../server/proxy/operations.js';
import { buildUpstream } from '../server/proxy/proxies.js';
import type { HttpProxy } from '../server/proxy/upstream.js';

// What wildtools' mock makes of an OpenAPI document: each operation's inferred role, then each operation called
// once inside one session, in an app served in this process (no socket), with every hazard off.

type Obj = Record<string, unknown>;

/** The proxy's name inside the survey's app: it never shows, the paths are the document's. */
const NAME = 'api';

export interface SurveyRole {
  name: string;
  method: string;
  path: string;
  role: Role;
}

export interface SurveyCall {
  operation: string;
  /** `POST /tickets`, with the path filled in and the query. */
  request: string;
  status: number;
  note: string;
  /** A create's read back through the resource's read operation: true, false, or absent (no create, no 2xx, no read operation). */
  roundTrip?: boolean;
}

export interface Survey {
  roles: SurveyRole[];
  calls: SurveyCall[];
  summary: {
    operations: number;
    /** How many calls answered each status. */
    statuses: Record<string, number>;
    /** The operations that answered a 5xx. */
    serverErrors: string[];
    /** Creates that answered 2xx and were read back, and those that were not. */
    roundTrips: { ok: string[]; failed: string[] };
    ok: boolean;
  };
}

/** The methods in the order a path item is read. */
const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'];

/** The order operations are called in: creates first (parents before children), deletes last (children before parents). */
const RANK: Record<Role['action'], number> = { create: 0, read: 1, list: 2, update: 3, none: 4, delete: 5 };
const order = (a: SurveyRole, b: SurveyRole): number =>
  RANK[a.role.action] - RANK[b.role.action] || (a.role.parents.length - b.role.parents.length) * (a.role.action === 'delete' ? -1 : 1);

/** Builds the mock of `openapi` as the server does; a bad document or seed file throws its ProxyConfigError. */
export async function surveyMock(openapi: string, seedFile: string | undefined, seed: string): Promise<Survey> {
  const config = parseUpstream({ openapi, mock: seedFile === undefined ? {} : { seed_file: seedFile } }, 'mock-check', NAME);
  const upstream = (await buildUpstream(NAME, config, 'mock-check')) as HttpProxy;
  const mock = upstream.mock!;
  const document = upstream.document!;
  const app = await buildApp({ domains: [], bases: new Map(), sessions: { ttlMs: 3_600_000, maxSessions: 1, defaultSeed: seed }, proxies: [upstream] });
  try {
    const opened = await app.inject({ method: 'POST', url: '/sessions', payload: { seed } });
    const session = (opened.json() as { id: string }).id;
    const paths = Object.keys(isObject(document['paths']) ? document['paths'] : {});
    const place = (role: SurveyRole) => paths.indexOf(role.path) * 10 + METHODS.indexOf(role.method);
    const roles = mock.roles().sort((a, b) => place(a) - place(b));
    const survey = new Exercise(app, document, session, seed, roles);
    for (const role of [...roles].sort(order)) await survey.call(role);
    return { roles, calls: survey.calls, summary: summarize(roles.length, survey.calls) };
  } finally {
    await app.close();
  }
}

function summarize(operations: number, calls: readonly SurveyCall[]): Survey['summary'] {
  const statuses: Record<string, number> = {};
  for (const call of calls) statuses[call.status] = (statuses[call.status] ?? 0) + 1;
  const serverErrors = calls.filter((call) => call.status >= 500).map((call) => call.operation);
  const roundTrips = {
    ok: calls.filter((call) => call.roundTrip === true).map((call) => call.operation),
    failed: calls.filter((call) => call.roundTrip === false).map((call) => call.operation),
  };
  return { operations, statuses, serverErrors, roundTrips, ok: serverErrors.length === 0 && roundTrips.failed.length === 0 };
}

interface Request {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: unknown;
  /** The record of the session its id parameter names, when it names one. */
  held?: string;
}

/** The calls of one session, each request built from the document and the records the session holds. */
class Exercise {
  readonly calls: SurveyCall[] = [];

  constructor(
    private readonly app: FastifyInstance,
    private readonly document: Obj,
    private readonly session: string,
    private readonly seed: string,
    private readonly roles: readonly SurveyRole[],
  ) {}

  async call(op: SurveyRole): Promise<void> {
    const random = new Random(`${this.seed}\u001fmock-check\u001f${op.name}`);
    const before = await this.records();
    const request = this.request(op, before, random);
    const answer = await this.send(request);
    const call: SurveyCall = { operation: op.name, request: describe(request), status: answer.status, note: noteOf(answer.status, answer.body) };
    // A record the session holds, not found: the mock lost it (or a path reads it otherwise than its id parameter says).
    if (answer.status === 404 && request.held !== undefined) call.note += ` (the session holds ${request.held})`;
    if (op.role.action === 'create' && answer.status >= 200 && answer.status < 300) {
      const after = await this.records();
      const made = Object.keys(after[op.role.resource] ?? {}).find((id) => !Object.hasOwn(before[op.role.resource] ?? {}, id));
      const read = readerOf(op, this.roles);
      if (made === undefined) call.note = 'no record kept';
      else if (read === undefined) call.note = `kept ${op.role.resource} '${made}' (no read operation)`;
      else {
        const record = after[op.role.resource]![made] as Obj;
        const back = await this.send(this.request(read, after, random, { id: made, record }));
        call.roundTrip = back.status >= 200 && back.status < 300;
        const why = noteOf(back.status, back.body);
        call.note = call.roundTrip
          ? `round trip ok (${read.name} '${made}')`
          : `not found after create (${read.name} '${made}': ${back.status}${why ? ` ${why}` : ''})`;
      }
    }
    this.calls.push(call);
  }

  /** The session's records, by resource and id. */
  private async records(): Promise<Record<string, Obj>> {
    const state = (await this.app.inject({ method: 'GET', url: `/sessions/${this.session}/state` })).json() as Obj;
    return isObject(state[NAME]) ? (state[NAME] as Record<string, Obj>) : {};
  }

  private async send(request: Request): Promise<{ status: number; body: string }> {
    const query = new URLSearchParams(request.query).toString();
    const reply = await this.app.inject({
      method: request.method as 'GET',
      url: `/s/${this.session}/proxy/${NAME}${request.path}${query ? `?${query}` : ''}`,
      headers: { ...request.headers, ...(request.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(request.body === undefined ? {} : { payload: JSON.stringify(request.body) }),
    });
    return { status: reply.statusCode, body: reply.body };
  }

  /** A request for the operation: its path parameters from a record the session holds, the rest generated from the document. */
  private request(op: SurveyRole, records: Record<string, Obj>, random: Random, chosen?: { id: string; record: Obj }): Request {
    const { role } = op;
    const values: Obj = {};
    // A record of the resource that sits under parents (a child of `/invoices/{id}/timeline` holds its invoice's id).
    const own = chosen ?? firstRecord(records[role.resource], (record) => role.parents.every((parent) => record[parent.field] !== undefined));
    if (role.idParam !== undefined && own !== undefined) {
      values[role.idParam] = own.id;
      for (const parent of role.parents) if (own.record[parent.field] !== undefined) values[parent.param] = own.record[parent.field];
    }
    for (const parent of role.parents) if (values[parent.param] === undefined) values[parent.param] = firstRecord(records[parent.resource])?.id;
    const operation = this.operation(op);
    const query: Record<string, string> = {};
    const headers: Record<string, string> = {};
    for (const param of declaredParameters(this.document, this.pathItem(op), operation)) {
      const name = param['name'] as string;
      const place = param['in'];
      if (place === 'path' && values[name] === undefined) values[name] = generate(this.document, param['schema'], random);
      else if (param['required'] === true && (place === 'query' || place === 'header')) {
        (place === 'query' ? query : headers)[place === 'header' ? name.toLowerCase() : name] = asText(generate(this.document, param['schema'], random));
      }
    }
    // A create sends no id unless it must: the mock assigns one, as a server would (a generated one could break the id parameter's bounds).
    const ids = role.action === 'create' ? ['id', readerOf(op, this.roles)?.role.idParam ?? 'id'] : [];
    const body = this.body(operation, random, ids);
    const held = role.idParam !== undefined && own !== undefined ? `${role.resource} '${own.id}'` : undefined;
    return {
      method: op.method,
      path: fillPath(op.path, values),
      query,
      headers,
      ...(body === undefined ? {} : { body }),
      ...(held === undefined ? {} : { held }),
    };
  }

  private operation(op: SurveyRole): Obj {
    return member(this.pathItem(op), op.method.toLowerCase());
  }

  private pathItem(op: SurveyRole): Obj {
    return member(member(this.document, 'paths'), op.path);
  }

  /** A JSON body the request schema accepts: generated, with the required members a generated record leaves out (`writeOnly`, undeclared). */
  private body(operation: Obj, random: Random, dropped: readonly string[]): unknown {
    const json = requestMedia(this.document, operation);
    if (json === undefined || json['schema'] === undefined) return undefined;
    // One alternative of a oneOf/anyOf, the first, whose required members can then be filled in.
    const whole = flatten(this.document, json['schema']);
    const first = alternatives(whole)?.[0];
    const schema = first === undefined ? whole : { ...whole, oneOf: undefined, anyOf: undefined, ...flatten(this.document, first) };
    const example = structuredClone(mediaExample(this.document, json));
    const body = example === undefined ? generate(this.document, schema, random) : example;
    if (!isObject(body)) return body;
    const properties = propertiesOf(schema);
    const required = asArray(schema['required']).filter((name): name is string => typeof name === 'string');
    for (const name of required) if (body[name] === undefined) body[name] = generate(this.document, properties[name] ?? { type: 'string' }, random);
    for (const name of dropped) if (!required.includes(name)) delete body[name];
    return body;
  }
}

/** The operation that reads one record a create makes: of its resource under the same parents, at the create's path and an id if there is one. */
function readerOf(create: SurveyRole, roles: readonly SurveyRole[]): SurveyRole | undefined {
  const parents = (role: Role) => role.parents.map((parent) => parent.resource).join('/');
  const readers = roles.filter((one) => one.role.action === 'read' && one.role.resource === create.role.resource && parents(one.role) === parents(create.role));
  return readers.find((one) => one.path.startsWith(`${create.path}/{`)) ?? readers[0];
}

const firstRecord = (table: Obj | undefined, fits: (record: Obj) => boolean = () => true): { id: string; record: Obj } | undefined => {
  const first = Object.entries(table ?? {}).find(([, record]) => isObject(record) && fits(record));
  return first === undefined ? undefined : { id: first[0], record: first[1] as Obj };
};

const member = (object: Obj, key: string): Obj => {
  const value = object[key];
  return isObject(value) ? value : {};
};

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const asText = (value: unknown): string =>
  Array.isArray(value) ? value.map(asText).join(',') : typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);

function describe(request: Request): string {
  const query = new URLSearchParams(request.query).toString();
  return `${request.method} ${request.path}${query ? `?${query}` : ''}`;
}

/** What a call's answer says: a problem's detail for a 4xx or 5xx, else nothing. */
function noteOf(status: number, body: string): string {
  if (status < 400) return '';
  try {
    const problem = JSON.parse(body) as Obj;
    return typeof problem['detail'] === 'string' ? problem['detail'] : typeof problem['title'] === 'string' ? problem['title'] : '';
  } catch {
    return body.slice(0, 120);
  }
}
