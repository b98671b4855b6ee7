import { parseArgs } from 'node:util';

/** Where a command writes, and the environment it reads. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
}

export interface Option {
  /** `port` for `--port`. */
  name: string;
  /** The placeholder of its value (`N`, `DIR`); absent for a switch. */
  value?: string;
  /** May be given several times. */
  multiple?: boolean;
  description: string;
}

export type Values = Record<string, string | boolean | string[] | undefined>;

/** A subcommand: `wildtools <name> [arguments] [--options]`. Adding one is a file and a line in commands/index.ts. */
export interface Command {
  name: string;
  summary: string;
  /** Positional arguments, all required: `['session']` for `journal <session>`. */
  arguments?: readonly string[];
  options: readonly Option[];
  /** Exit code: 0 done, 1 failed, 2 used wrongly. */
  run(values: Values, positionals: readonly string[], io: Io): Promise<number>;
}

/** A mistake in how the command was called: printed with a pointer to --help, exit 2. */
export class UsageError extends Error {}

/** The values and positional arguments of a command's arguments; a UsageError for anything it does not take. */
export function parse(command: Command, argv: readonly string[]): { values: Values; positionals: string[]; help: boolean } {
  const options = Object.fromEntries(
    command.options.map((option) => [option.name, { type: option.value ? ('string' as const) : ('boolean' as const), multiple: option.multiple ?? false }]),
  );
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(usageMessage(error as Error & { code?: string }));
  }
  const { help, ...values } = parsed.values as Values;
  const expected = command.arguments ?? [];
  if (!help && parsed.positionals.length !== expected.length) {
    const what = expected.length === 0 ? 'no arguments' : expected.map((name) => `<${name}>`).join(' ');
    throw new UsageError(`takes ${what}, got ${parsed.positionals.length === 0 ? 'none' : parsed.positionals.map((p) => `'${p}'`).join(' ')}`);
  }
  return { values, positionals: parsed.positionals, help: help === true };
}

function usageMessage(error: Error & { code?: string }): string {
  const flag = /'(-[^' ]+)/.exec(error.message)?.[1] ?? '';
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown flag ${flag}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return /argument missing/.test(error.message) ? `${flag} needs a value` : `${flag} takes no value`;
    default:
      return error.message;
  }
}

/** `wildtools <command> --help`. */
export function commandHelp(command: Command): string {
  const args = (command.arguments ?? []).map((name) => ` <${name}>`).join('');
  const flags: [string, string][] = command.options.map((option) => [`--${option.name}${option.value ? ` ${option.value}` : ''}`, option.description]);
  flags.push(['-h, --help', 'this help']);
  const width = Math.max(...flags.map(([flag]) => flag.length));
  const lines = flags.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`);
  return `Usage: wildtools ${command.name}${args} [flags]\n\n${command.summary}\n\nFlags:\n${lines.join('\n')}\n`;
}
