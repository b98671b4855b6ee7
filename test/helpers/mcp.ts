import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Agent, fetch as undiciFetch } from 'undici';

export interface McpConnection {
  client: Client;
  /** tools/call, its result typed as a tool result. */
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  /** The X-Session-Id of the server's answers: the wildtools session the MCP session is bound to. */
  session(): string | undefined;
  /** How many tools/list_changed notifications arrived. */
  listChanges(): number;
  close(): Promise<void>;
}

/** An MCP SDK client over Streamable HTTP at `url`, closed when the test ends. */
export async function connectMcp(t: { teardown(fn: () => unknown): void }, url: string, headers: Record<string, string> = {}): Promise<McpConnection> {
  let session: string | undefined;
  let changes = 0;
  // Its own connections, closed with it: the server's close would otherwise wait for them to time out.
  const agent = new Agent();
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers },
    fetch: async (input, init) => {
      const response = (await undiciFetch(input as string, { ...(init as object), dispatcher: agent })) as unknown as Response;
      session = response.headers.get('x-session-id') ?? session;
      return response;
    },
  });
  const client = new Client({ name: 'wildtools-test', version: '1.0.0' });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes++;
  });
  await client.connect(transport);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await transport.terminateSession().catch(() => {});
    await client.close();
    await agent.close();
  };
  t.teardown(close);
  const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
  return { client, call, session: () => session, listChanges: () => changes, close };
}
