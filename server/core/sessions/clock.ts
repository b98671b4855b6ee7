import { z } from 'zod';

export const ClockOptions = z
  .strictObject({
    start: z.iso.datetime({ offset: true }).default('2024-05-15T15:00:00-05:00').describe("The session's time at its first call (ISO 8601 with offset)."),
    step_ms: z.number().int().min(0).max(86_400_000).default(1000).describe('How far the clock advances with each call, in milliseconds.'),
  })
  .describe("The session's clock: virtual and deterministic, it advances by step_ms at every call.");
export type ClockOptions = z.infer<typeof ClockOptions>;

/**
 * A session's clock. Data paths read time only from here, never from the machine, so the
 * same calls give the same times (and the same data) on every run.
 */
export class SessionClock {
  private readonly startMs: number;
  private ticks = 0;

  constructor(readonly options: ClockOptions) {
    this.startMs = Date.parse(options.start);
  }

  now(): Date {
    return new Date(this.startMs + this.ticks * this.options.step_ms);
  }

  /** Advances to the time of the next call and returns it, in epoch milliseconds. */
  tick(): number {
    const at = this.startMs + this.ticks * this.options.step_ms;
    this.ticks += 1;
    return at;
  }

  get ticksSoFar(): number {
    return this.ticks;
  }

  restore(ticks: number): void {
    this.ticks = ticks;
  }
}
