import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { buildMcpServer } from './server.js';

// npx tsx examples/upstream-mcp/stdio.ts       (the help desk over stdin/stdout, for a client that starts it)
// Nothing else may write to stdout: it carries the protocol.

await buildMcpServer().connect(new StdioServerTransport());
