import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { type AIMessage, type BaseMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { DynamicStructuredTool, ToolInputParsingException } from '@langchain/core/tools';
import type { ListedTool, WildtoolsSession } from '../shared/wildtools.js';

// wildtools' tools as LangChain structured tools, and a manual tool-calling loop over a chat model.

/** One structured tool per listed tool, from its JSON Schema; its func POSTs the arguments to the session. */
export function langchainTools(session: WildtoolsSession, domain: string, listed: readonly ListedTool[]): DynamicStructuredTool[] {
  return listed.map(
    (spec) =>
      new DynamicStructuredTool({
        name: spec.name,
        description: spec.description,
        schema: spec.input_schema,
        // A refusal comes back as text for the model to read, never as an exception.
        func: (args: unknown) => session.call(domain, spec.name, args),
      }),
  );
}

export interface LoopRun {
  session: WildtoolsSession;
  domain: string;
  /** What the user asks. */
  prompt: string;
  /** A chat model that supports tool calling (bindTools). */
  model: BaseChatModel;
  maxTurns?: number;
}

/** Asks the model, runs the tools it calls, hands their outputs back, until it answers in words. */
export async function runLoop({ session, domain, prompt, model, maxTurns = 20 }: LoopRun): Promise<string> {
  if (!model.bindTools) throw new Error('this chat model does not support tool calling');
  const tools = langchainTools(session, domain, await session.tools(domain));
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const withTools = model.bindTools(tools);
  const messages: BaseMessage[] = [new SystemMessage(await session.policy(domain)), new HumanMessage(prompt)];
  for (let turn = 0; turn < maxTurns; turn += 1) {
    const reply = (await withTools.invoke(messages)) as AIMessage;
    messages.push(reply);
    if (!reply.tool_calls?.length) return reply.text;
    for (const call of reply.tool_calls) {
      const tool = byName.get(call.name);
      const output = tool
        ? await tool.invoke(call).catch((error: unknown) => {
            // LangChain refuses arguments that break the schema without saying which: the server's
            // refusal names the field, so that is what the model reads.
            if (error instanceof ToolInputParsingException) return session.call(domain, call.name, call.args);
            throw error;
          })
        : `Error: there is no tool named ${call.name}`;
      messages.push(ToolMessage.isInstance(output) ? output : new ToolMessage({ content: String(output), tool_call_id: call.id ?? '', name: call.name }));
    }
  }
  throw new Error(`no answer after ${maxTurns} turns`);
}
