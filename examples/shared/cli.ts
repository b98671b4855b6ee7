import type { WildtoolsSession } from './wildtools.js';

// What the examples' command lines share: `--scripted` or a prompt, and a summary of the session.

export interface CliOptions {
  /** Run the scripted stand-in instead of a real model (no network, no key). */
  scripted: boolean;
  /** What the user asks; the example's own task when none is given. */
  prompt: string | undefined;
}

function stop(message: string): never {
  console.error(message);
  process.exit(2);
}

/** The command line's options; a real run without OPENAI_API_KEY stops with a message saying what to do. */
export function cliOptions(argv: readonly string[] = process.argv.slice(2), environment: NodeJS.ProcessEnv = process.env, exit = stop): CliOptions {
  const words = argv.filter((word) => word !== '--scripted');
  const scripted = words.length < argv.length;
  if (!scripted && !environment['OPENAI_API_KEY'])
    exit('OPENAI_API_KEY is not set: set it to run a real model, or pass --scripted to run the scripted stand-in.');
  return { scripted, prompt: words.length > 0 ? words.join(' ') : undefined };
}

/** Prints the agent's answer and what the session changed. */
export async function report(session: WildtoolsSession, finalAnswer: string): Promise<void> {
  console.log(`agent: ${finalAnswer}`);
  for (const [domain, changes] of Object.entries(await session.diff())) {
    for (const change of changes) console.log(`changed: ${domain} ${change.table} ${change.id} ${change.op} ${(change.fields ?? []).join(', ')}`);
  }
  console.log(`journal: ${session.url}/sessions/${session.id}/journal`);
}
