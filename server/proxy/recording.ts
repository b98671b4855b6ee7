import { JsonTextError, parseJsonText } from '../../lib/json.js';
import { isObject } from '../../lib/object.js';
import type { HttpUpstream } from './config.js';

// A recording is a JSON Lines file, one exchange a line: appended to as exchanges arrive (no rewrite of the
// file), readable line by line, and a line cut short by a crash loses that exchange only.

/** A body as a line holds it: its text when it is UTF-8, otherwise its bytes in base64. */
export type RecordedBody = { body?: string; body_base64?: string };

/** One recorded exchange: the request as sent to the upstream, and the upstream's answer as it came. */
export type Exchange = { method: string; path: string } & RecordedBody & {
    response: { status: number; headers: Record<string, string> } & RecordedBody;
  };

export const REDACTED = '[redacted]';
const DEFAULT_HEADERS = ['authorization', 'cookie', 'set-cookie', 'x-api-key'];
const DEFAULT_FIELDS = ['password', 'token', 'secret'];

/** What a recording never keeps: values of named headers, and of body members and query parameters whose names contain a word. */
export class Redaction {
  private readonly headerNames: Set<string>;
  private readonly words: string[];

  constructor(config: HttpUpstream['redact']) {
    this.headerNames = new Set((config?.headers ?? DEFAULT_HEADERS).map((name) => name.toLowerCase()));
    this.words = (config?.fields ?? DEFAULT_FIELDS).map((word) => word.toLowerCase());
  }

  private secret(name: string): boolean {
    const lower = name.toLowerCase();
    return this.words.some((word) => lower.includes(word));
  }

  headers(headers: Record<string, string>): Record<string, string> {
    return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, this.headerNames.has(name.toLowerCase()) ? REDACTED : value]));
  }

  /** A path with the values of secret query parameters replaced (the path untouched when none is). */
  path(path: string): string {
    const mark = path.indexOf('?');
    if (mark < 0) return path;
    const query = new URLSearchParams(path.slice(mark + 1));
    const secrets = [...new Set(query.keys())].filter((name) => this.secret(name));
    if (secrets.length === 0) return path;
    for (const name of secrets) query.set(name, REDACTED);
    return `${path.slice(0, mark)}?${query.toString()}`;
  }

  /** A body with secret members replaced at any depth when it is JSON; its bytes untouched when nothing was. */
  body(bytes: Buffer | undefined): RecordedBody {
    if (!bytes || bytes.length === 0) return {};
    const text = bytes.toString('utf8');
    if (!Buffer.from(text, 'utf8').equals(bytes)) return { body_base64: bytes.toString('base64') };
    let value: unknown;
    try {
      value = parseJsonText(text);
    } catch (error) {
      // JSON too deep (or with a prototype key) to walk safely may still hide a secret: none of it is kept.
      return { body: error instanceof JsonTextError && error.reason !== 'syntax' ? REDACTED : text };
    }
    const changed = { value: false };
    const kept = this.members(value, changed, 0);
    return { body: changed.value ? JSON.stringify(kept) : text };
  }

  private members(value: unknown, changed: { value: boolean }, depth: number): unknown {
    if (Array.isArray(value)) return value.map((item) => this.members(item, changed, depth + 1));
    if (!isObject(value)) return value;
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => {
        if (!this.secret(name)) return [name, this.members(item, changed, depth + 1)];
        changed.value = true;
        return [name, REDACTED];
      }),
    );
  }
}

/** The bytes of a recorded body. */
export const bodyBytes = (recorded: RecordedBody): Buffer =>
  recorded.body_base64 !== undefined ? Buffer.from(recorded.body_base64, 'base64') : Buffer.from(recorded.body ?? '', 'utf8');

/** What makes a request distinct in a recording: method, path with query, body (all as redacted). */
export const exchangeKey = (exchange: Pick<Exchange, 'method' | 'path' | 'body' | 'body_base64'>): string =>
  JSON.stringify([exchange.method, exchange.path, exchange.body ?? null, exchange.body_base64 ?? null]);
