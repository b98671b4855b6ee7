/**
 * An error that is an expected answer, not a bug (a broken business rule, an injected fault):
 * thrown on hot paths, so it skips capturing a stack trace nobody reads.
 */
export class QuietError extends Error {
  constructor(message: string) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}
