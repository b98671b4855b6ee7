/**
 * What an agent receives instead of the tool's answer when a hazard makes the call fail:
 * an HTTP response in the style of a real API (not necessarily problem JSON), or a fault of
 * the connection itself.
 */
export type FaultResponse =
  | { type: 'http'; status: number; contentType: string; body: string; headers?: Record<string, string> }
  | { type: 'transport'; mode: 'reset' | 'empty' | 'truncated' | 'malformed'; body: string };

export class HazardFault extends Error {
  constructor(readonly response: FaultResponse) {
    super(response.type === 'http' ? `hazard: HTTP ${response.status}` : `hazard: ${response.mode}`);
  }
}

/** A fault answered as JSON (the API's own error shape, or a gateway's). */
export function jsonFault(status: number, body: unknown, headers: Record<string, string> = {}): HazardFault {
  const problem = typeof body === 'object' && body !== null && 'status' in body && 'title' in body;
  return new HazardFault({
    type: 'http',
    status,
    contentType: problem ? 'application/problem+json; charset=utf-8' : 'application/json; charset=utf-8',
    body: JSON.stringify(body),
    headers,
  });
}
