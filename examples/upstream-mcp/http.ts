import type { AddressInfo } from 'node:net';
import { portOption } from '../shared/port.js';
import { MCP_PATH, mcpHttp } from './streamable.js';

// npx tsx examples/upstream-mcp/http.ts [--port 9091]      (PORT works too)

const { server, close } = mcpHttp();
server.listen(portOption(9091), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`helpdesk MCP listening at http://127.0.0.1:${port}${MCP_PATH}`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void close());
