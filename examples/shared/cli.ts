import type { WildtoolsSession } from './wildtools.js';

// What the examples' command lines share: `--scripted` or a prompt, and a summary of the session.

export interface CliOptions {
  /** Run the scripted stand-in instead of a real model (no network, no key). */
  scripted: boolean;
  /** What the user asks; the example's own task when none is given. */
  prompt: string | undefined;
}

export function cliOptions(argv: readonly string[] = process.argv.slice(2)): CliOptions {
  const words = argv.filter((word) => word !== '--scripted');
  return { scripted: words.length < argv.length, prompt: words.length > 0 ? words.join(' ') : undefined };
}

/** Prints the agent's answer and what the session changed. */
export async function report(session: WildtoolsSession, finalAnswer: string): Promise<void> {
  console.log(`agent: ${finalAnswer}`);
  for (const [domain, changes] of Object.entries(await session.diff())) {
    for (const change of changes) console.log(`changed: ${domain} ${change.table} ${change.id} ${change.op} ${(change.fields ?? []).join(', ')}`);
  }
  console.log(`journal: ${session.url}/sessions/${session.id}/journal`);
}
