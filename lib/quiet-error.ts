/** Runs `make` without capturing stack traces: for errors that are answers, whose traces nobody reads. */
export function withoutStackTrace<T>(make: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * An error that is an expected answer, not a bug (a broken business rule, an injected fault):
 * thrown on hot paths, so it skips capturing a stack trace nobody reads.
 */
export class QuietError extends Error {
  constructor(message: string) {
    // withoutStackTrace's steps, inline: a derived constructor calls super at its root.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}
