import { generateText, type JSONSchema7, jsonSchema, type LanguageModel, stepCountIs, type Tool, tool } from 'ai';
import type { ListedTool, WildtoolsSession } from '../shared/wildtools.js';

// wildtools' tools as Vercel AI SDK tools, and one generateText run that calls them until it answers.

/** One AI SDK tool per listed tool, keyed by name; its execute POSTs the arguments to the session. */
export function aiTools(session: WildtoolsSession, domain: string, listed: readonly ListedTool[]): Record<string, Tool> {
  return Object.fromEntries(
    listed.map((spec) => [
      spec.name,
      tool({
        description: spec.description,
        inputSchema: jsonSchema(spec.input_schema as JSONSchema7),
        // A refusal comes back as text for the model to read, never as an exception.
        execute: (args: unknown) => session.call(domain, spec.name, args),
      }),
    ]),
  );
}

export interface AiRun {
  session: WildtoolsSession;
  domain: string;
  /** What the user asks. */
  prompt: string;
  model: LanguageModel;
}

/** Runs the model with the domain's policy as system prompt and its tools, for at most 20 steps. */
export async function runAi({ session, domain, prompt, model }: AiRun): Promise<string> {
  const result = await generateText({
    model,
    system: await session.policy(domain),
    prompt,
    tools: aiTools(session, domain, await session.tools(domain)),
    stopWhen: stepCountIs(20),
  });
  return result.text;
}
