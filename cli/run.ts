import { VERSION } from '../server/core/version.js';
import type { Io } from './command.js';
import { commands } from './commands/index.js';
import { runCommand } from './run-command.js';

function overallHelp(): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  const lines = commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary.split('. ')[0]!.replace(/\.$/, '')}`);
  return (
    `Usage: wildtools <command> [flags]\n\nMock API server of unreliable tools for LLM agents ` +
    `(version ${VERSION}).\n\nCommands:\n${lines.join('\n')}\n\nRun 'wildtools <command> --help' for its flags.\n`
  );
}

/** Runs `wildtools <argv>`; resolves with the exit code (serve resolves once it listens). */
export async function runCli(argv: readonly string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.err(overallHelp());
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    io.out(overallHelp());
    return 0;
  }
  if (name === '--version') {
    io.out(`${VERSION}\n`);
    return 0;
  }
  const command = commands.find((candidate) => candidate.name === name);
  if (!command) {
    io.err(`wildtools: unknown command '${name}' (commands: ${commands.map((c) => c.name).join(', ')}); see wildtools --help\n`);
    return 2;
  }
  return runCommand(command, rest, io);
}
