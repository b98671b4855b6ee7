/** RFC 9457 problem details as the server answers them, with its extension members. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code?: string;
  errors?: { field: string; message: string }[];
  [member: string]: unknown;
}

/** Any failure of a client call: the server refused it, answered something else, or never answered. */
export class WildtoolsError extends Error {
  override name = 'WildtoolsError';
  constructor(
    message: string,
    /** `POST /retail/tools/get_order_details`: the request that failed. */
    readonly request: string,
  ) {
    super(message);
  }
}

/** The server refused the call with problem JSON: nothing changed, and `detail` says how to fix it. */
export class ProblemError extends WildtoolsError {
  override name = 'ProblemError';
  readonly status: number;
  /** The stable machine-readable reason (`invalid_reason`, `order_not_found`…). */
  readonly code: string | undefined;
  readonly detail: string;
  /** The first offending field, when the problem names one. */
  readonly field: string | undefined;
  constructor(
    request: string,
    readonly problem: Problem,
    readonly headers: Record<string, string>,
  ) {
    super(`${request} answered ${problem.status} ${problem.code ?? problem.title}: ${problem.detail}`, request);
    this.status = problem.status;
    this.code = problem.code;
    this.detail = problem.detail;
    this.field = typeof problem['field'] === 'string' ? problem['field'] : problem.errors?.[0]?.field;
  }
}

/** What came back instead of an answer the API defines. */
export type Received =
  /** An HTTP answer that is not problem JSON (an error page, a gateway's JSON) or, for a success, not JSON. */
  | { kind: 'foreign'; status: number; contentType: string; body: string }
  /** The connection failed before the answer was complete: reset, closed, cut mid-body. */
  | { kind: 'connection'; status: number | undefined; cause: string };

/**
 * An answer that is not one the API defines: a gateway's HTML page, a foreign JSON error, a body that
 * is not JSON, a connection reset or a truncated body. The message says what was received.
 */
export class UnexpectedResponseError extends WildtoolsError {
  override name = 'UnexpectedResponseError';
  constructor(
    request: string,
    readonly received: Received,
  ) {
    super(`${request}: ${describe(received)}`, request);
  }

  /** The HTTP status, when an answer's head arrived. */
  get status(): number | undefined {
    return this.received.status;
  }
}

const SHOWN = 200;

function describe(received: Received): string {
  if (received.kind === 'connection') {
    const when = received.status === undefined ? 'before any answer' : `after the head of a ${received.status} answer (a truncated body)`;
    return `the connection failed ${when}: ${received.cause}`;
  }
  const body = received.body.length > SHOWN ? `${received.body.slice(0, SHOWN)}… (${received.body.length} characters)` : received.body;
  const what = received.status < 400 ? 'a body that is not JSON' : 'something other than problem JSON';
  return `answered ${received.status} ${received.contentType || 'without a content type'}, ${what}: ${JSON.stringify(body)}`;
}
