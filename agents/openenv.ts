import type { Dispatcher } from 'undici';
import { OpenEnvClient, type OpenEnvObservation, type ResetData, type StepResult } from '../client/openenv.js';
import { exchange, type Reply } from './http.js';
import type { Obj, ToolClient } from './tool-client.js';

// The scripted agents over OpenEnv: each tool call is a step of the episode's WebSocket, and the reply the
// agent sees is the observation's HTTP answer, so that a plan cannot tell the two transports apart.

/** An observation's tool answer as the HTTP reply it stands for; a connection that failed (or a cut body) is status 0, as undici reports it. */
function replyOf(observation: OpenEnvObservation): Reply {
  const { response, error } = observation;
  if (!response || error?.error_type === 'transport_error') return { status: 0, headers: {}, body: undefined, text: '' };
  let body: unknown = response.body;
  try {
    body = JSON.parse(response.body);
  } catch {}
  return { status: response.status, headers: response.headers, body, text: response.body };
}

/** A ToolClient whose calls are steps of an OpenEnv episode; listings, the policy and other reads stay plain HTTP of the same session. */
export function openenvToolClient(episode: OpenEnvClient, dispatcher: Dispatcher, base: string, domain: string, session: string): ToolClient {
  const get = (path: string) => exchange(dispatcher, base, 'GET', path);
  return {
    domain,
    session,
    call: async (tool, args = {}) => replyOf((await episode.step({ type: 'call_tool', tool_name: tool, arguments: args })).observation),
    listing: async () => (await get(`/s/${session}/${domain}/tools?format=openai`)).body as Obj[],
    policy: async () => (await get(`/${domain}/policy`)).text,
    get,
  };
}

/** Opens an episode of `task` at `${base}/openenv` in the session `session` (kept after the connection closes, for its journal). */
export async function openEpisode(base: string, data: ResetData & { episode_id: string }): Promise<{ episode: OpenEnvClient; first: StepResult }> {
  const episode = await OpenEnvClient.connect(`${base}/openenv`);
  try {
    return { episode, first: await episode.reset({ ...data, keep: true }) };
  } catch (error) {
    await episode.close();
    throw error;
  }
}
