import { domains } from '../../domains/index.js';
import { serveMcpStdio } from '../../server/mcp/stdio.js';
import { prepare } from '../../server/launch.js';
import { type Command, UsageError } from '../command.js';
import { flaggedEnvironment, serverOptions } from '../server-flags.js';

export const mcp: Command = {
  name: 'mcp',
  summary: 'Serve the tools over MCP on stdin and stdout, for desktop clients, until stdin closes. Logs go to stderr. The server flags apply as for serve.',
  options: [
    { name: 'domain', value: 'NAME', description: `the tools of one domain (${domains.map((domain) => domain.name).join(', ')}); every tool when absent` },
    { name: 'session', value: 'ID', description: "the session the calls run in (default: 'default')" },
    ...serverOptions,
  ],
  async run(values, _positionals, io) {
    const view = typeof values['domain'] === 'string' ? values['domain'] : 'combined';
    if (view !== 'combined' && !domains.some((domain) => domain.name === view))
      throw new UsageError(`--domain: no domain '${view}'; choose one of ${domains.map((domain) => domain.name).join(', ')}`);
    const env = flaggedEnvironment(Object.fromEntries(Object.entries(values).filter(([name]) => name !== 'domain' && name !== 'session')), io.env);
    const { app } = await prepare(env, 'stderr');
    await app.ready();
    const session = typeof values['session'] === 'string' ? values['session'] : undefined;
    await serveMcpStdio(app, { view, ...(session !== undefined ? { session } : {}) });
    await new Promise<void>((resolve) => process.stdin.once('close', resolve).once('end', resolve));
    await app.close();
    return 0;
  },
};
