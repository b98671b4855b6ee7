import { pathToFileURL } from 'node:url';

// The session recording.jsonl holds: seven calls an agent could make to the CRM, sent through wildtools' proxy
// (`/proxy/crm/…`) while it records. test/examples/recording.test.ts plays them again and compares the files.
//
//   npx tsx examples/upstream-crm/session.ts     (WILDTOOLS_URL, default http://127.0.0.1:8080; CRM_TOKEN as the bearer token)

export interface SessionCall {
  method: 'GET' | 'POST' | 'PATCH';
  /** The path after /proxy/crm, with its query. */
  path: string;
  body?: Record<string, unknown>;
}

export const SESSION_CALLS: readonly SessionCall[] = [
  { method: 'GET', path: '/contacts?limit=3' },
  { method: 'GET', path: '/contacts/c_002' },
  { method: 'POST', path: '/contacts', body: { name: 'Grace Hopper', email: 'grace.hopper@borealis.example', company: 'Borealis Labs' } },
  { method: 'PATCH', path: '/contacts/c_041', body: { phone: '+1-555-0199' } },
  { method: 'GET', path: '/deals?contact_id=c_001' },
  { method: 'POST', path: '/deals/d_001/close', body: { outcome: 'won' } },
  { method: 'GET', path: '/contacts/c_999' },
];

/** Sends the session's calls one after another through the proxy at `base`; each call's `METHOD path → status`. */
export async function playSession(base: string, token?: string): Promise<string[]> {
  const lines: string[] = [];
  for (const call of SESSION_CALLS) {
    const headers: Record<string, string> = {
      ...(call.body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    };
    const response = await fetch(`${base}/proxy/crm${call.path}`, {
      method: call.method,
      headers,
      ...(call.body ? { body: JSON.stringify(call.body) } : {}),
    });
    await response.arrayBuffer();
    lines.push(`${call.method} ${call.path} → ${response.status}`);
  }
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const base = (process.env['WILDTOOLS_URL'] ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
  for (const line of await playSession(base, process.env['CRM_TOKEN'])) console.log(line);
}
