import { WildtoolsClient } from '../client/index.js';
import type { Option, Values } from './command.js';

// What the commands that read a running server share: where it is and the token it wants.

const DEFAULT_URL = 'http://127.0.0.1:8080';

export const remoteOptions: readonly Option[] = [
  { name: 'url', value: 'URL', description: `the running server (default: $WILDTOOLS_URL, else ${DEFAULT_URL})` },
  { name: 'token', value: 'TOKEN', description: 'bearer token, when the server sets API_TOKEN or ADMIN_TOKEN (default: $WILDTOOLS_TOKEN)' },
];

export function clientFor(values: Values, env: NodeJS.ProcessEnv): WildtoolsClient {
  const token = (values['token'] as string | undefined) ?? env['WILDTOOLS_TOKEN'];
  return new WildtoolsClient({ baseUrl: (values['url'] as string | undefined) ?? (env['WILDTOOLS_URL'] || DEFAULT_URL), apiToken: token, adminToken: token });
}
