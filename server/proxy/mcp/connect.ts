import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type Tool, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../../core/version.js';
import { checkDepth } from '../answer.js';
import { type McpUpstream, ProxyConfigError } from '../config.js';
import type { McpConnector } from '../proxies.js';
import { McpProxy } from './upstream.js';

/** Tools read from an upstream's listing at most (its pages followed until then). */
const MAX_TOOLS = 1000;
/** What is kept of a child's stderr, to explain a failed start. */
const STDERR_KEPT = 2048;

/**
 * Connects to a declared MCP upstream (Streamable HTTP, or a child process over stdio), reads its tools, and
 * follows its tools/list_changed. A failure to connect is a ProxyConfigError naming the upstream.
 */
export const connectMcp: McpConnector = async (name, config) => {
  const { transport, stderr } = transportOf(config);
  const client = new Client({ name: `wildtools-proxy-${name}`, version: VERSION });
  const where = typeof config.mcp === 'string' ? config.mcp : `stdio: ${config.mcp.command}`;
  let proxy: McpProxy;
  try {
    await client.connect(transport, { timeout: config.timeout_ms });
    proxy = new McpProxy(name, config, client, await listTools(client, config.timeout_ms), () => disconnect(client, transport));
  } catch (error) {
    await disconnect(client, transport);
    if (error instanceof ProxyConfigError) throw error;
    const said = stderr().trim();
    throw new ProxyConfigError(`${name}: mcp: cannot connect to ${where} (${(error as Error).message})${said ? `; it said: ${said}` : ''}`);
  }
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    try {
      proxy.refresh(await listTools(client, config.timeout_ms));
    } catch {
      // The listing could not be read, or no longer has the tools the rules name: the proxy keeps the tools it knows.
    }
  });
  return proxy;
};

function transportOf(config: McpUpstream): { transport: StreamableHTTPClientTransport | StdioClientTransport; stderr: () => string } {
  if (typeof config.mcp === 'string') return { transport: new StreamableHTTPClientTransport(new URL(config.mcp)), stderr: () => '' };
  const { command, args, env, cwd } = config.mcp;
  // The child's stderr is read (its last words explain a failed start), never mixed into the server's own output.
  // Declared variables add to the SDK's safe default environment (PATH, HOME…) rather than replace it.
  const transport = new StdioClientTransport({
    command,
    args,
    ...(env ? { env: { ...getDefaultEnvironment(), ...env } } : {}),
    ...(cwd ? { cwd } : {}),
    stderr: 'pipe',
  });
  let said = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    said = (said + chunk.toString()).slice(-STDERR_KEPT);
  });
  return { transport, stderr: () => said };
}

/** Every page of the upstream's tools. */
async function listTools(client: Client, timeout: number): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor }, { timeout });
    checkDepth(page.tools);
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined && tools.length < MAX_TOOLS);
  return tools;
}

/** Ends the upstream's HTTP session (or its child process) and the client. */
async function disconnect(client: Client, transport: StreamableHTTPClientTransport | StdioClientTransport): Promise<void> {
  if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => {});
  await client.close().catch(() => {});
}
