import { type CodePath, FROM_MODULES } from '../../server/code-path.js';
import { launch } from '../../server/launch.js';
import type { Command } from '../command.js';
import { flaggedEnvironment, serverOptions } from '../server-flags.js';

/** `wildtools serve`, whose server says at start how its code was loaded (`code`). */
export const serveCommand = (code: CodePath): Command => ({
  name: 'serve',
  summary:
    'Serve the tools until SIGINT or SIGTERM. Each flag sets the environment variable it is named after (--port 9000 is PORT=9000), over the environment.',
  options: serverOptions,
  async run(values, _positionals, io) {
    await launch(flaggedEnvironment(values, io.env), code);
    return 0;
  },
});

export const serve: Command = serveCommand(FROM_MODULES);
