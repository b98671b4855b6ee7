import type { IncomingHttpHeaders } from 'node:http';
import { problem } from '../../core/problem.js';
import { fingerprint } from '../../core/sessions/idempotency.js';
import type { Session } from '../../core/sessions/session.js';
import { redacted } from '../redact.js';

// Idempotency keys, where a document's operation declares the header (`Idempotency-Key`, as payment APIs take it):
// a write sent again under its key gets the first one's answer and writes nothing, so that an agent can retry a
// write whose answer was lost. The keys are the session's own (server/core/sessions/idempotency.ts), as a tool's are.

const HEADER = /^idempotency[-_]?key$/i;

/** The idempotency header an operation declares (read once, when the mock is made), lower-cased as requests carry it. */
export function idempotencyHeaderOf(declared: readonly Record<string, unknown>[]): string | undefined {
  const param = declared.find((one) => one['in'] === 'header' && typeof one['name'] === 'string' && HEADER.test(one['name']));
  return param === undefined ? undefined : (param['name'] as string).toLowerCase();
}

/** The key a write carries in its operation's idempotency header; none when the operation declares none. */
export function idempotencyKeyOf(header: string | undefined, headers: IncomingHttpHeaders): string | undefined {
  const value = header === undefined ? undefined : headers[header];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** What a key already says of a write: the first answer again (`result`), a refusal (the key went with another request), or nothing yet. */
export function keyed(
  session: Session,
  proxy: string,
  operation: string,
  args: Record<string, unknown>,
  key: string,
): { replayed: number; result: unknown } | { refused: ReturnType<typeof problem> } | undefined {
  const seen = session.idempotency.get(key, session.clock.now().getTime());
  if (!seen) return undefined;
  if (seen.domain === proxy && seen.tool === operation && seen.fingerprint === fingerprint(redacted(args))) return { replayed: seen.seq, result: seen.result };
  const other = seen.domain === proxy && seen.tool === operation ? 'with other arguments' : 'for another request';
  return {
    refused: problem(
      422,
      'idempotency_key_reused',
      `The Idempotency-Key '${key}' was already used ${other} (call ${seen.seq}); use a new key for a new operation.`,
      { field: 'Idempotency-Key' },
    ),
  };
}
