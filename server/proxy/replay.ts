import { z } from 'zod';
import { readBoundedText } from '../../lib/bounded-file.js';
import { parseJsonText } from '../../lib/json.js';
import { isObject } from '../../lib/object.js';
import { problemError } from '../core/problem.js';
import { type HttpUpstream, ProxyConfigError } from './config.js';
import type { UpstreamAnswer } from './forward.js';
import type { SentRequest } from './record.js';
import { bodyBytes, type Exchange, type RecordedBody, Redaction } from './recording.js';

const DEFAULT_MAX_BYTES = 10 * 1_048_576;
const NEAREST = 3;

const Body = { body: z.string().optional(), body_base64: z.base64().optional() };
const ExchangeLine = z.object({
  method: z.string().min(1).max(16),
  path: z.string().startsWith('/'),
  ...Body,
  response: z.object({ status: z.number().int().min(100).max(599), headers: z.record(z.string(), z.string()), ...Body }),
});

/** An exchange as requests are matched against it. */
interface Recorded {
  exchange: Exchange;
  pathname: string;
  query: string;
  body: string;
}

/**
 * Serves a recording's answers (recording.ts) in place of an upstream. A request matches an exchange of the
 * same method and path whose query parameters are the same in any order and whose body is the same (JSON
 * compared as JSON), each after the redaction the recording applied; `match` leaves out the query or the body.
 */
export class Replayer {
  private readonly recorded: Recorded[] = [];
  /** The exchanges by method and path (without query), in the recording's order. */
  private readonly byPath = new Map<string, Recorded[]>();
  private readonly redaction: Redaction;
  private readonly match: { query: boolean; body: boolean };

  constructor(
    readonly file: string,
    config: Pick<HttpUpstream, 'redact' | 'match' | 'record_limits'>,
    where: string,
  ) {
    this.redaction = new Redaction(config.redact);
    this.match = { query: config.match?.query ?? true, body: config.match?.body ?? true };
    let text: string;
    try {
      text = readBoundedText(file, config.record_limits?.max_bytes ?? DEFAULT_MAX_BYTES);
    } catch (error) {
      throw new ProxyConfigError(`${where}: replay: ${file}: ${(error as Error).message}`);
    }
    text.split('\n').forEach((line, index) => {
      if (!line.trim()) return;
      let exchange: Exchange;
      try {
        exchange = ExchangeLine.parse(parseJsonText(line)) as Exchange;
      } catch (error) {
        const reason = error instanceof z.ZodError ? `${error.issues[0]!.path.join('.')}: ${error.issues[0]!.message}` : (error as Error).message;
        throw new ProxyConfigError(`${where}: replay: ${file} line ${index + 1}: not a recorded exchange (${reason})`);
      }
      const recorded = { exchange, ...this.keyOf(exchange.path, exchange) };
      this.recorded.push(recorded);
      const key = `${exchange.method} ${recorded.pathname}`;
      const same = this.byPath.get(key);
      if (same) same.push(recorded);
      else this.byPath.set(key, [recorded]);
    });
  }

  get size(): number {
    return this.recorded.length;
  }

  private keyOf(path: string, body: RecordedBody): Omit<Recorded, 'exchange'> {
    const mark = path.indexOf('?');
    const pathname = mark < 0 ? path : path.slice(0, mark);
    const pairs = [...new URLSearchParams(mark < 0 ? '' : path.slice(mark + 1))].sort(([a, x], [b, y]) => (a === b ? compare(x, y) : compare(a, b)));
    return { pathname, query: JSON.stringify(pairs), body: canonicalBody(body) };
  }

  /** The recorded answer to the request, as the upstream gave it; a 404 problem naming the nearest recorded requests when none matches. */
  answer(request: SentRequest): UpstreamAnswer {
    const method = request.method.toUpperCase();
    const key = this.keyOf(this.redaction.path(request.path), this.redaction.body(request.body));
    const found = this.byPath
      .get(`${method} ${key.pathname}`)
      ?.find((recorded) => (!this.match.query || recorded.query === key.query) && (!this.match.body || recorded.body === key.body));
    if (found) {
      const { response } = found.exchange;
      return { status: response.status, headers: { ...response.headers }, body: bodyBytes(response) };
    }
    const nearest = this.nearest(method, key.pathname);
    throw problemError(
      404,
      'replay_no_match',
      `The recording ${this.file} has no answer to ${method} ${request.path}` +
        (nearest.length ? `; nearest recorded: ${nearest.map((n) => `${n.method} ${n.path}`).join(', ')}.` : ': it is empty.'),
      { nearest, match: this.match },
    );
  }

  /**
   * Up to three recorded requests (method and path), nearest first: path segments edited, plus a half for another
   * count of segments and one for another method; ties in the recording's order.
   */
  private nearest(method: string, pathname: string): { method: string; path: string }[] {
    const segments = pathname.split('/');
    const scored = new Map<string, { method: string; path: string; distance: number }>();
    for (const { exchange, pathname: recorded } of this.recorded) {
      const name = `${exchange.method} ${exchange.path}`;
      if (scored.has(name)) continue;
      const theirs = recorded.split('/');
      const distance = editDistance(segments, theirs) + (theirs.length === segments.length ? 0 : 0.5) + (exchange.method === method ? 0 : 1);
      scored.set(name, { method: exchange.method, path: exchange.path, distance });
    }
    return [...scored.values()]
      .sort((a, b) => a.distance - b.distance)
      .slice(0, NEAREST)
      .map(({ method: m, path }) => ({ method: m, path }));
  }
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A body as requests are compared: JSON with its members in one order, otherwise its text (or bytes). */
function canonicalBody(body: RecordedBody): string {
  if (body.body_base64 !== undefined) return `base64:${body.body_base64}`;
  const text = body.body ?? '';
  if (text === '') return '';
  try {
    return `json:${JSON.stringify(sorted(parseJsonText(text)))}`;
  } catch {
    return `text:${text}`;
  }
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort(compare)
      .map((key) => [key, sorted(value[key])]),
  );
}

/** Levenshtein distance between two lists of path segments. */
function editDistance(a: readonly string[], b: readonly string[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}
