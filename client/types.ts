import type { Problem } from './errors.js';
import type { listingFormats, strictFormats } from './schemas/index.js';

// The shapes of the server's answers outside the tools, as its routes declare them (openapi/openapi.json).

/** A hazard setting: "on" (at the rate), "off", true/false, or a probability. */
export type HazardSetting = 'on' | 'off' | boolean | number;

/** Hazard settings: PUT /admin/hazards, a session's `hazards` option, the HAZARD_CONFIG file. */
export interface HazardSpec {
  enable?: string[];
  rate?: number;
  kinds?: Record<string, HazardSetting>;
  tools?: Record<string, Record<string, HazardSetting>>;
  hints?: boolean;
  max_consecutive?: number;
  latency_ms?: number;
}

/** POST /sessions. */
export interface SessionOptions {
  id?: string;
  seed?: string | number;
  clock?: { start?: string; step_ms?: number };
  hazards?: HazardSpec;
  /** The task the session runs (GET /tasks): its instance (`seed`), its setup and targeted hazards. */
  task?: string;
  /** With a task: the targeted kinds to switch on (default all; [] for none). */
  kinds?: string[];
  /** With a task: the probability that each targeted scenario hits (default 1). */
  hazard_rate?: number;
}

export interface SessionSummary {
  id: string;
  /** As given at creation (a number stays a number); a task's drawn seed; else the server's HAZARD_SEED. */
  seed: string | number;
  clock: { start: string; step_ms: number; now: string };
  calls: number;
  journal: { entries: number; dropped: number; bytes: number };
  changed_domains: string[];
  task?: string;
  answers?: number;
}

export type TaskCategory = 'single-step' | 'multi-step' | 'parallel' | 'multi-mission' | 'refusal' | 'partial';

/** GET /tasks: a task before a seed makes it concrete. */
export interface TaskSummary {
  id: string;
  domain: string;
  title: string;
  categories: TaskCategory[];
  /** Requests the user makes (more than one: multi-mission). */
  turns: number;
  /** `template`: each seed its own records, request and outcome; `data`: one set of data (an imported tau2-bench task). */
  source: 'template' | 'data';
  targets: { kind: string; tool: string }[];
}

/** GET /tasks/{domain}/{number}?seed=N: an instance as an agent may see it (never its expected outcome). */
export interface PublicTask {
  id: string;
  seed: number;
  domain: string;
  title: string;
  categories: TaskCategory[];
  request: string;
  follow_ups: string[];
  /** The session clock's time at the first call: the date and time the user speaks (ISO 8601). */
  now: string;
  targets: { kind: string; tool: string }[];
  tools: string[];
  policy: string;
  /** Per turn, the JSON Schema of the answer submit_answer takes; null for a task answered in words. */
  answer_schemas: (Record<string, unknown> | null)[];
  /** What the request states, as data. */
  given: unknown;
}

/** A final answer: a typed task's fields (what submit_answer takes), words for the user, or both. */
export interface SubmittedAnswer {
  answer?: Record<string, unknown>;
  text?: string;
}

/** Where a task stands after an answer. */
export interface AnswerReceipt {
  turn: number;
  turns: number;
  next_request: string | null;
}

interface ChangedRecord {
  domain: string;
  table: string;
  id: string;
  op: 'insert' | 'update' | 'delete';
  after?: unknown;
}

/** A run's verdict (GET /sessions/{id}/score, POST /score): deterministic, from the journal, the state and the answers. */
export interface Score {
  task: string;
  success: boolean;
  state: { ok: boolean; missing: ChangedRecord[]; unexpected: ChangedRecord[]; different: { domain: string; table: string; id: string; fields: string[] }[] };
  answer: {
    ok: boolean;
    answered: boolean;
    rule: 'typed' | 'tau2';
    differences: { turn: number; path: string; expected?: unknown; got?: unknown }[];
    missing: (string | number)[];
    stated_but_excluded: (string | number)[];
  };
  hazards: { kind: string; tool: string; hits: number[]; blocking: boolean; recovered: boolean; evidence: number[] }[];
  traps: { seq: number; tool: string; why: string }[];
  duplicated_writes: { tool: string; calls: number[] }[];
  unasked_writes: { seq: number; tool: string }[];
  contradicted_claims: string[];
  missing_calls?: string[];
  calls: number;
  retries: number;
  failed_calls: number;
}

export interface SessionScore extends Score {
  session: string;
  seed: number;
  journal_complete: boolean;
}

/** POST /batches. */
export interface BatchOptions {
  id?: string;
  task: string;
  n: number;
  /** One distinct instance per session (1 … N when absent). */
  seeds?: number[];
  kinds?: string[];
  hazard_rate?: number;
  hazards?: HazardSpec;
  clock?: { start?: string; step_ms?: number };
}

/** POST /batches, GET /batches/{id}. */
export interface BatchReport {
  id: string;
  task: string;
  sessions: { id: string; seed: number; status: 'running' | 'scored' | 'expired'; success: boolean | null }[];
  scored: number;
  successes: number;
  pass_hat_k: { k: number; pass: number }[];
}

export interface HazardEvent {
  kind: string;
  family: string;
  tool: string;
  call: number;
  recovery: string;
  hint?: string;
  retryable: boolean;
  /** For a failed write: whether it ran before its answer was lost. */
  committed?: boolean;
  [detail: string]: unknown;
}

export interface JournalEntry {
  seq: number;
  /** The session clock's time, ISO 8601. */
  at: string;
  domain: string;
  tool: string;
  call: number;
  args: unknown;
  args_truncated?: { bytes: number; kept: number };
  status: number;
  result?: unknown;
  problem?: Problem;
  idempotency?: { key: string; replayed?: number };
  changes: readonly { table: string; id: string; value: unknown }[];
  hazards: readonly HazardEvent[];
  duration_ms: number;
  [member: string]: unknown;
}

/** GET /sessions/{id}/diff: per domain, the records changed since the session started. */
export type SessionDiff = Record<
  string,
  { table: string; id: string; op: 'insert' | 'update' | 'delete'; fields?: string[]; before: unknown; after: unknown }[]
>;

export interface HazardCell {
  domain: string;
  tool: string;
  kind: string;
  family: string;
  probability: number;
  /** The setting that decided the probability. */
  source: string;
  /** True when the domain declares this kind for this tool. */
  assigned: boolean;
  /** When the scenario bites only some calls of its tool: which, in the agent's terms ("UPS orders only"). */
  condition?: string;
}

/** GET /hazards, and the answer of PUT and DELETE /admin/hazards. */
export interface HazardReport {
  session: string;
  seed: string;
  settings: { hints: boolean; max_consecutive: number; latency_ms: number };
  kinds: { kind: string; family: string; scope: 'call' | 'session'; retryable: boolean; sees: string; recovery: string }[];
  matrix: HazardCell[];
}

export interface Health {
  status: 'ok' | 'full';
  version: string;
  sessions: { live: number; max: number; full: boolean };
  journal: { bytes: number; limit: number | null };
  detail?: string;
}

export interface DomainInfo {
  name: string;
  title: string;
  summary: string;
  tools: number;
  endpoints: { tools: string; openapi: string; policy: string };
}

export type ListingFormat = (typeof listingFormats)[number];
/** The formats that take `strict`: schemas for OpenAI's strict mode. */
export type StrictFormat = (typeof strictFormats)[number];
