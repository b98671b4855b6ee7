import type { LoadOptions } from './load.js';

// What every scenario of `npm run bench` is given and gives back.

export interface BenchContext {
  load: LoadOptions;
  /** Alternating rounds of a comparison (wildtools, then the yardstick, again and again). */
  rounds: number;
  /** The server `npm start` runs. */
  server: string;
  /** The order every read and write names, and a pending one for the writes. */
  orderId: string;
  pendingOrderId: string;
  /** Progress lines (stderr when the report goes to stdout as JSON). */
  log(line: string): void;
}

/** One figure: a ratio to the yardstick of the same run, or an absolute value, next to its target when it has one. */
export interface Figure {
  scenario: string;
  metric: string;
  value: number;
  unit: string;
  target?: { at: 'least' | 'most'; value: number };
  /** Every round's value, for the figures that are a median of rounds. */
  rounds?: number[];
  note?: string;
}

export interface Scenario {
  name: string;
  /** One line for `npm run bench -- --list`. */
  summary: string;
  run(context: BenchContext): Promise<Figure[]>;
}

export const met = (figure: Figure): boolean | undefined =>
  figure.target === undefined ? undefined : figure.target.at === 'least' ? figure.value >= figure.target.value : figure.value <= figure.target.value;
