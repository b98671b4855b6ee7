import { Agent, type Model, Runner, tool } from '@openai/agents';
import type { ListedTool, WildtoolsSession } from '../shared/wildtools.js';

// wildtools' retail tools as OpenAI Agents SDK function tools, and one run of an agent over them.

/** One function tool per listed tool; its execute POSTs the arguments to the session's tool route. */
export function agentTools(session: WildtoolsSession, domain: string, listed: readonly ListedTool[]) {
  return listed.map((spec) =>
    tool({
      name: spec.name,
      description: spec.description,
      // Not strict: not every listed schema meets strict mode's rules. The SDK's non-strict type asks for
      // additionalProperties: true; the server still refuses an unknown argument, naming it.
      parameters: { ...spec.input_schema, required: spec.input_schema.required ?? [], additionalProperties: true },
      strict: false,
      // A refusal comes back as text for the model to read, never as an exception.
      execute: (args) => session.call(domain, spec.name, args),
    }),
  );
}

export interface AgentRun {
  session: WildtoolsSession;
  domain: string;
  /** What the user asks. */
  prompt: string;
  /** A model object, or a model name for the default provider (OpenAI, with OPENAI_API_KEY). */
  model: Model | string;
  /** Send traces to OpenAI (off for the scripted stand-in, which has no key). */
  tracing?: boolean;
}

/** Runs an agent whose instructions are the domain's policy; answers its final output. */
export async function runAgent({ session, domain, prompt, model, tracing = false }: AgentRun): Promise<string> {
  const agent = new Agent({
    name: `wildtools ${domain} agent`,
    instructions: await session.policy(domain),
    tools: agentTools(session, domain, await session.tools(domain)),
    model,
  });
  const result = await new Runner({ tracingDisabled: !tracing }).run(agent, prompt, { maxTurns: 20 });
  return String(result.finalOutput ?? '');
}
