import { QuietError } from '../lib/quiet-error.js';

/**
 * What an agent receives instead of the tool's answer when a hazard makes the call fail, in a form
 * no transport owns: an answer in the style of a real API (not necessarily problem JSON), or a fault
 * of the connection that carries the answer. Each transport renders it on its own wire (server/).
 */
export type Fault = ForeignAnswer | ConnectionFault | DamagedAnswer;

/** An HTTP answer in another server's style: an nginx 502 page, a gateway's 504, a 429 with Retry-After. */
export interface ForeignAnswer {
  type: 'http';
  status: number;
  contentType: string;
  body: string;
  /** The body as a value, when the hazard wrote it from one (saves parsing it back). */
  document?: unknown;
  headers?: Record<string, string>;
}

/** The connection is reset, or closed without an answer. */
export interface ConnectionFault {
  type: 'transport';
  mode: 'reset' | 'empty';
  headers?: Record<string, string>;
}

/**
 * The answer arrives damaged: cut short (the connection closes before the announced length), or with
 * a broken byte in its JSON under a 200. `answer` is what the API answered; `keep` the fraction of
 * the wire text that survives, so each transport damages its own text alike.
 */
export interface DamagedAnswer {
  type: 'transport';
  mode: 'truncated' | 'malformed';
  answer: unknown;
  keep: number;
  headers?: Record<string, string>;
}

/** A damaged answer's wire text: cut at the kept fraction, or with a NUL byte in place of the next character. */
export function damage(text: string, fault: DamagedAnswer): string {
  const cut = Math.max(1, Math.floor(text.length * fault.keep));
  return fault.mode === 'truncated' ? text.slice(0, cut) : `${text.slice(0, cut)}\u0000${text.slice(cut + 1)}`;
}

export class HazardFault extends QuietError {
  constructor(readonly fault: Fault) {
    super(fault.type === 'http' ? `hazard: HTTP ${fault.status}` : `hazard: ${fault.mode}`);
  }
}
