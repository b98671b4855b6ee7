import { WildtoolsError } from '../client/errors.js';
import { type Command, commandHelp, type Io, parse, UsageError } from './command.js';

/** Runs one command on its arguments (after its name); resolves with the exit code: 0 done, 1 failed, 2 misused. */
export async function runCommand(command: Command, argv: readonly string[], io: Io): Promise<number> {
  try {
    const { values, positionals, help } = parse(command, argv);
    if (help) {
      io.out(commandHelp(command));
      return 0;
    }
    return await command.run(values, positionals, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`wildtools ${command.name}: ${error.message}; see wildtools ${command.name} --help\n`);
      return 2;
    }
    if (error instanceof WildtoolsError || (error as { code?: string }).code?.startsWith('E')) {
      io.err(`wildtools ${command.name}: ${(error as Error).message}\n`);
      return 1;
    }
    throw error;
  }
}
