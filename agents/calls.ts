import { hash32 } from '../lib/random.js';
import type { Skill } from '../lib/skills.js';
import type { Reply } from './http.js';
import type { Obj, ToolClient } from './tool-client.js';

// How scripted agents call tools: the literal call (once, the first answer taken at face value) and the
// careful call (the habits of a recovering agent: retry, add what the error names, follow a parameter
// renamed in the re-read listing, reformat as the listing says), and reading the session's listing.

/** The agent gave up: no usable answer (a failure status, a broken body, no reply). */
export class Blocked extends Error {
  constructor(
    readonly reply: Reply | undefined,
    why: string,
  ) {
    super(why);
  }
}

/** One call; a connection that fails or a body cut short is no reply at all. */
async function send(c: ToolClient, tool: string, args: Obj): Promise<Reply | undefined> {
  try {
    const reply = await c.call(tool, args);
    return reply.status === 0 ? undefined : reply;
  } catch (error) {
    if (isConnectionError(error)) return undefined;
    throw error;
  }
}

const isConnectionError = (error: unknown) => /^(UND_ERR|ECONN|EPIPE)/.test(String((error as { code?: unknown }).code ?? ''));

/** The JSON value of a 2xx answer (tools may answer a bare string), or undefined. */
function answerOf(reply: Reply | undefined): { value: any } | undefined {
  if (!reply || reply.status < 200 || reply.status >= 300) return undefined;
  try {
    return { value: JSON.parse(reply.text) };
  } catch {
    return undefined;
  }
}

/** The literal call: the answer of a 2xx reply, else Blocked (a failure status, a broken body, no reply). */
export async function literal<T = any>(c: ToolClient, tool: string, args: Obj = {}): Promise<T> {
  const reply = await send(c, tool, args);
  const answer = answerOf(reply);
  if (!answer) throw new Blocked(reply, reply ? `${tool} answered ${reply.status}${reply.status < 300 ? ' with a broken body' : ''}` : `${tool}: no reply`);
  return answer.value as T;
}

/** A tool as the session's listing shows it (OpenAI format). */
export interface Listed {
  name: string;
  description: string;
  parameters: { properties: Record<string, { description?: string }>; required?: string[] };
}

const listed = async (c: ToolClient): Promise<Listed[]> => (await c.listing()).map((entry) => entry['function'] as Listed);

export async function listedTool(c: ToolClient, name: string): Promise<Listed> {
  const tool = (await listed(c)).find((entry) => entry.name === name);
  if (!tool) throw new Error(`${name} is not listed`);
  return tool;
}

/** A tool as the documented listing shows it: what the agent read before its first call. */
async function documented(c: ToolClient, name: string): Promise<Listed> {
  const tools = (await c.get(`/${c.domain}/tools?format=openai`)).body as Obj[];
  return tools.map((entry) => entry['function'] as Listed).find((entry) => entry.name === name)!;
}

/** The tool a literal agent calls for a job: the lookalike when the listing has one beside the canonical tool. */
export const literalChoice = async (c: ToolClient, canonical: string, lookalike: string) =>
  (await listed(c)).some((entry) => entry.name === lookalike) ? lookalike : canonical;

/** How the listing may ask a parameter to be written, and how the careful agent then writes it. */
export interface Reformat {
  /** What the parameter's (or the tool's) description must say for the agent to apply `fix`. */
  says: RegExp;
  fix(value: string): string;
}

export interface CarefulOptions {
  /** Formats the agent can apply once the listing states them, by parameter. */
  reformat?: Record<string, Reformat>;
  /** Calls at most (default 12: up to 2 faults in a row after each of a few corrections, as HAZARD_MAX_CONSECUTIVE allows). */
  tries?: number;
  /** The habits the caller has (every one when absent). */
  skills?: ReadonlySet<Skill>;
}

/** Retry-After beyond which waiting is not an option (an incident, not a hiccup). */
const LONGEST_WAIT_S = 60;

/**
 * The careful call, with the skills the caller has: `retry` retries a failure of the server or the network
 * (5xx, 429, a reset, a broken body); `retry_after` stops at a long Retry-After (an incident) instead;
 * `act_on_error` adds the argument an error names as required; `reread_listing` follows a parameter renamed
 * in the re-read listing and reformats one as it says. Anything else (a refusal, an outage) throws Blocked
 * with the reply, for the script to take another way. It does not sleep through a short Retry-After: in the
 * mock, the hazard schedule decides when a retry passes.
 */
export async function careful<T = any>(c: ToolClient, tool: string, args: Obj = {}, options: CarefulOptions = {}): Promise<T> {
  const has = (skill: Skill) => options.skills?.has(skill) ?? true;
  let current = { ...args };
  let reply: Reply | undefined;
  for (let attempt = 1; attempt <= (options.tries ?? 12); attempt++) {
    reply = await send(c, tool, current);
    const answer = answerOf(reply);
    if (answer) return answer.value as T;
    if (reply === undefined || (reply.status >= 200 && reply.status < 300)) {
      if (has('retry')) continue;
      break;
    }
    if (reply.status >= 500 || reply.status === 429) {
      if (Number(reply.headers['retry-after'] ?? 0) > LONGEST_WAIT_S && has('retry_after')) break;
      if (has('retry')) continue;
      break;
    }
    const fixed = await correct(c, tool, current, reply, options, has);
    if (!fixed) break;
    current = fixed;
  }
  throw new Blocked(reply, reply ? `${tool} answered ${reply.status}` : `${tool}: no reply`);
}

/** The arguments the error and the re-read listing lead to, or null when they lead nowhere. */
async function correct(c: ToolClient, tool: string, args: Obj, reply: Reply, options: CarefulOptions, has: (skill: Skill) => boolean): Promise<Obj | null> {
  const problem = (typeof reply.body === 'object' && reply.body !== null ? reply.body : {}) as Obj;
  const detail = String(problem['detail'] ?? '');
  if (problem['code'] === 'idempotency_key_required' && !('idempotency_key' in args)) {
    return has('act_on_error') ? { ...args, idempotency_key: `key-${tool}-${hash32(JSON.stringify(args))}` } : null;
  }
  if (problem['code'] === 'api_version_required') {
    const version = /"api_version": "([^"]+)"/.exec(detail)?.[1];
    return has('act_on_error') && version && args['api_version'] !== version ? { ...args, api_version: version } : null;
  }
  if (!has('reread_listing')) return null;
  const now = await listedTool(c, tool);
  const schema = now.parameters;
  const unknown = ((problem['errors'] ?? []) as Obj[]).flatMap((e) => (/^unknown field/.test(String(e['message'])) ? [String(e['field'])] : []));
  if (reply.status === 400 && unknown.length === 1) {
    // The parameter is listed under a new name: the one the contract read before the first call lacked, with the same description.
    const before = (await documented(c, tool)).parameters.properties;
    const added = Object.keys(schema.properties).filter((name) => !(name in before));
    const renamed = added.length === 1 ? added[0] : added.find((name) => schema.properties[name]?.description === before[unknown[0]!]?.description);
    if (!renamed) return null;
    const { [unknown[0]!]: value, ...rest } = args;
    return { ...rest, [renamed]: value };
  }
  const field = String(problem['field'] ?? '');
  const format = options.reformat?.[field];
  if (reply.status === 422 && problem['code'] === 'invalid_format' && format && typeof args[field] === 'string') {
    const says = `${now.description} ${schema.properties[field]?.description ?? ''}`;
    const value = format.fix(args[field]);
    return format.says.test(says) && value !== args[field] ? { ...args, [field]: value } : null;
  }
  return null;
}

/** Runs `script`; when it is refused with `status`, runs `otherwise` with the refusal's body. */
export async function orElse<T, U = T>(status: number, script: () => Promise<T>, otherwise: (problem: Obj) => Promise<U>): Promise<T | U> {
  try {
    return await script();
  } catch (error) {
    if (!(error instanceof Blocked) || error.reply?.status !== status) throw error;
    return otherwise(error.reply.body as Obj);
  }
}

/** A sum of money in dollars, to the cent. */
export const dollars = (amounts: readonly number[]) => amounts.reduce((cents, amount) => cents + Math.round(amount * 100), 0) / 100;

/** The tool a deprecated answer says to use instead, or undefined for an answer that is not deprecated. */
export const replacementOf = (answer: unknown): string | undefined =>
  answer && typeof answer === 'object' && (answer as Obj)['deprecated'] === true ? /Use (\w+)/.exec(String((answer as Obj)['deprecation']))?.[1] : undefined;

/**
 * What a skimming reader takes for `key`: its first occurrence in the answer as the text runs (depth
 * first, in member order), where a literal agent reading top-down meets it; undefined when absent.
 */
export function firstField(value: unknown, key: string): unknown {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = firstField(item, key);
      if (found !== undefined) return found;
    }
  } else if (value && typeof value === 'object') {
    for (const [name, member] of Object.entries(value)) {
      const found = name === key ? member : firstField(member, key);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** How a script calls a tool: `literal` or `careful`. */
export type Call = <T = any>(c: ToolClient, tool: string, args?: Obj) => Promise<T>;
