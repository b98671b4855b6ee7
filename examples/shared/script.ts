// A scripted stand-in for a model, shared by the examples' tests and their `--scripted` runs: no network,
// no API key. A script decides its next turn from the tool outputs the framework handed back to the
// model, so a framework that dropped an answer (a refusal, say) would derail the script.

/** A tool call the stand-in asks for. */
export interface ScriptedCall {
  name: string;
  args: Record<string, unknown>;
}

/** What a tool answered, as the framework handed it back to the model. */
export interface SeenOutput {
  name: string;
  output: string;
}

/** The stand-in's next turn: tool calls, or its final answer. */
export type Turn = { calls: ScriptedCall[] } | { text: string };

/** A scripted model: from the tool outputs it was handed so far, its next turn. */
export type Script = (seen: readonly SeenOutput[]) => Turn;

export const callTool = (name: string, args: Record<string, unknown>): Turn => ({ calls: [{ name, args }] });

export const answer = (text: string): Turn => ({ text });

/** A top-level field of a JSON tool output, or undefined when the output is not a JSON object. */
export function fieldOf(output: string | undefined, field: string): unknown {
  try {
    const parsed: unknown = JSON.parse(output ?? '');
    return typeof parsed === 'object' && parsed !== null && Object.hasOwn(parsed, field) ? (parsed as Record<string, unknown>)[field] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a tool output is a fault of the way there rather than the tool's answer: a failed connection, a 5xx,
 * a 429 or a 408 (nothing the call's arguments can fix), or a body that is not JSON (cut short, a broken byte).
 * A refusal (another 4xx, in problem JSON) is an answer: the call must change, not be repeated.
 */
export function isFault(output: string): boolean {
  if (output.startsWith('Error: the request failed')) return true;
  const status = /^Error: HTTP (\d{3}) /.exec(output)?.[1];
  if (status !== undefined) return status.startsWith('5') || status === '429' || status === '408';
  try {
    JSON.parse(output);
    return false;
  } catch {
    return true;
  }
}

/** How many times the stand-in sends one call before it gives up on a fault. */
export const ATTEMPTS = 5;

/**
 * A script that copes with faults: after a fault it sends the same call again (the inner script, shown the
 * outputs without the faults, asks for it again: a write, with the same idempotency key, so that a write that
 * committed before its answer was lost is answered, not repeated); after ATTEMPTS faults in a row it says so
 * and claims nothing.
 */
export function coping(script: Script): Script {
  return (seen) => {
    const answers = seen.filter((entry) => !isFault(entry.output));
    let trailing = 0;
    while (trailing < seen.length && isFault(seen[seen.length - 1 - trailing]!.output)) trailing += 1;
    if (trailing >= ATTEMPTS) {
      const last = seen.at(-1)!;
      return answer(`I could not complete the request: ${last.name} failed ${trailing} times in a row (${last.output.slice(0, 200)}).`);
    }
    return script(answers);
  };
}

/** Numbers the stand-in's tool calls (`call_1`, `call_2`, …) as a model's call ids. */
export function callIds(): () => string {
  let next = 0;
  return () => {
    next += 1;
    return `call_${next}`;
  };
}
