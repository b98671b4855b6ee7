import { appendFile } from 'node:fs/promises';
import { closeSync, openSync, statSync } from 'node:fs';
import { readBoundedText } from '../../lib/bounded-file.js';
import { type HttpUpstream, ProxyConfigError } from './config.js';
import type { UpstreamAnswer } from './forward.js';
import { type Exchange, exchangeKey, Redaction } from './recording.js';

const DEFAULT_MAX_ENTRIES = 1000;
const DEFAULT_MAX_BYTES = 10 * 1_048_576;

/** The request as the proxy sent it to the upstream. */
export interface SentRequest {
  method: string;
  path: string;
  body: Buffer | undefined;
}

/**
 * Appends each distinct exchange with an upstream to a recording (recording.ts), secrets redacted, until its
 * bounds: past them it records nothing more and logs one warning. A file that already holds exchanges is
 * continued: those requests are not recorded twice.
 */
export class Recorder {
  private readonly seen = new Set<string>();
  private readonly redaction: Redaction;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private entries = 0;
  private bytes = 0;
  private warned = false;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    readonly file: string,
    config: Pick<HttpUpstream, 'record_limits' | 'redact'>,
    where: string,
  ) {
    this.redaction = new Redaction(config.redact);
    this.maxEntries = config.record_limits?.max_entries ?? DEFAULT_MAX_ENTRIES;
    this.maxBytes = config.record_limits?.max_bytes ?? DEFAULT_MAX_BYTES;
    try {
      closeSync(openSync(file, 'a'));
      this.bytes = statSync(file).size;
    } catch (error) {
      throw new ProxyConfigError(`${where}: record: cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    if (this.bytes <= this.maxBytes) this.continue(readBoundedText(file, this.maxBytes));
  }

  private continue(text: string): void {
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      this.entries += 1;
      try {
        this.seen.add(exchangeKey(JSON.parse(line) as Exchange));
      } catch {
        // A line cut short: it counts against the bounds, and its request may be recorded again.
      }
    }
  }

  /** Records the exchange unless its request is recorded already or the file is full; a failure to write is a warning, never the call's. */
  async record(request: SentRequest, answer: UpstreamAnswer, warn: (message: string) => void): Promise<void> {
    const exchange: Exchange = {
      method: request.method,
      path: this.redaction.path(request.path),
      ...this.redaction.body(request.body),
      response: { status: answer.status, headers: this.redaction.headers(answer.headers), ...this.redaction.body(answer.body) },
    };
    const key = exchangeKey(exchange);
    if (this.seen.has(key)) return;
    const line = `${JSON.stringify(exchange)}\n`;
    const size = Buffer.byteLength(line);
    if (this.entries + 1 > this.maxEntries || this.bytes + size > this.maxBytes) {
      if (!this.warned) warn(`record: ${this.file} is full (${this.entries} exchanges, ${this.bytes} bytes; record_limits): recording no more`);
      this.warned = true;
      return;
    }
    this.seen.add(key);
    this.entries += 1;
    this.bytes += size;
    const write = this.writing.then(() => appendFile(this.file, line));
    this.writing = write.catch((error: unknown) => warn(`record: cannot append to ${this.file}: ${(error as Error).message}`));
    await this.writing;
  }
}
