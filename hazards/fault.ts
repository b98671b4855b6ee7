import { QuietError } from '../lib/quiet-error.js';

/**
 * What an agent receives instead of the tool's answer when a hazard makes the call fail:
 * an HTTP response in the style of a real API (not necessarily problem JSON), or a fault of
 * the connection itself.
 */
export type FaultResponse =
  | { type: 'http'; status: number; contentType: string; body: string; headers?: Record<string, string> }
  | { type: 'transport'; mode: 'reset' | 'empty' | 'truncated' | 'malformed'; body: string; headers?: Record<string, string> };

export class HazardFault extends QuietError {
  constructor(readonly response: FaultResponse) {
    super(response.type === 'http' ? `hazard: HTTP ${response.status}` : `hazard: ${response.mode}`);
  }
}
