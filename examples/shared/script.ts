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

/** Numbers the stand-in's tool calls (`call_1`, `call_2`, …) as a model's call ids. */
export function callIds(): () => string {
  let next = 0;
  return () => {
    next += 1;
    return `call_${next}`;
  };
}
