import type { Dispatcher } from 'undici';
import { exchange, type Reply } from './http.js';

export type Obj = Record<string, any>;

/** What a scripted agent talks to: one session of one domain, over HTTP, seeing what any agent sees. */
export interface ToolClient {
  readonly domain: string;
  readonly session: string;
  /** The raw call: any status, any body; status 0 when the connection failed without an answer. */
  call(tool: string, args?: Obj): Promise<Reply>;
  /** The session's tool listing (OpenAI format), as an agent would re-read it. */
  listing(): Promise<Obj[]>;
  /** The domain policy text. */
  policy(): Promise<string>;
  /** GET on any other path of the server (the documented listing, the journal). */
  get(path: string): Promise<Reply>;
}

/** A client of one session of a server at `base`; every reply is also handed to `seen`, in call order. */
export function toolClient(dispatcher: Dispatcher, base: string, domain: string, session: string, seen?: (reply: Reply) => void): ToolClient {
  const get = (path: string) => exchange(dispatcher, base, 'GET', path);
  return {
    domain,
    session,
    async call(tool, args = {}) {
      const reply = await exchange(dispatcher, base, 'POST', `/s/${session}/${domain}/tools/${tool}`, args);
      seen?.(reply);
      return reply;
    },
    listing: async () => (await get(`/s/${session}/${domain}/tools?format=openai`)).body as Obj[],
    policy: async () => (await get(`/${domain}/policy`)).text,
    get,
  };
}
