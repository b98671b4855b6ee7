import { launch } from '../../server/launch.js';
import type { Command } from '../command.js';
import { flaggedEnvironment, serverOptions } from '../server-flags.js';

export const serve: Command = {
  name: 'serve',
  summary:
    'Serve the tools until SIGINT or SIGTERM. Each flag sets the environment variable it is named after (--port 9000 is PORT=9000), over the environment.',
  options: serverOptions,
  async run(values, _positionals, io) {
    await launch(flaggedEnvironment(values, io.env));
    return 0;
  },
};
