import type { CodePath } from '../server/code-path.js';
import type { Io } from './command.js';
import { serveCommand } from './commands/serve.js';
import { runCommand } from './run-command.js';

// The entry of the bundle (dist/bundle/server.cjs, made by scripts/bundle.mjs): what `npm start` runs
// (dist/bundle/main.js calls launch) and what `wildtools serve` runs (dist/cli/main.js calls serve), so that
// both start from one file and its code cache.

export { launch } from '../server/launch.js';

/** `wildtools serve <argv>` (its flags, --help, its usage errors), from the bundle loaded as `code` says. */
export const serve = (argv: readonly string[], io: Io, code: CodePath): Promise<number> => runCommand(serveCommand(code), argv, io);
