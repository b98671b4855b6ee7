import { isDict } from './python.js';

// What an observation must look like for OpenEnv's MCPToolClient to read it (mcp_client.py _parse_result):
// `"tools" in obs` iterates obs["tools"], `"tool_name" in obs` builds a CallToolObservation whose tool_name
// is a str, `obs.get("metadata", {})` must give a dict. A member present as null passes the `in` test and
// then breaks the parse, so `tools` may only be a list and `tool_name` only a string, when present.

/** The members of an observation that would break MCPToolClient's parse: [] when none. */
export function unreadableMembers(observation: unknown): string[] {
  if (!isDict(observation)) return ['observation (not an object)'];
  const problems: string[] = [];
  if ('tools' in observation && !Array.isArray(observation['tools'])) problems.push(`tools: ${JSON.stringify(observation['tools'])}`);
  if ('tool_name' in observation && typeof observation['tool_name'] !== 'string') problems.push(`tool_name: ${JSON.stringify(observation['tool_name'])}`);
  if ('metadata' in observation && !isDict(observation['metadata'])) problems.push(`metadata: ${JSON.stringify(observation['metadata'])}`);
  return problems;
}
