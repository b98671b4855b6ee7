import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { callIds, type Script, type SeenOutput } from '../shared/script.js';

// A stand-in for a chat model: a small BaseChatModel whose turns come from a script.

/** The tool messages in the conversation, as the model reads them. */
const toolOutputs = (messages: readonly BaseMessage[]): SeenOutput[] =>
  messages.filter((message) => ToolMessage.isInstance(message)).map((message) => ({ name: message.name ?? '', output: message.text }));

export class ScriptedChatModel extends BaseChatModel {
  /** The tool outputs handed to the model at its latest turn. */
  seen: SeenOutput[] = [];
  private readonly nextId = callIds();

  constructor(private readonly script: Script) {
    super({});
  }

  _llmType(): string {
    return 'scripted';
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.seen = toolOutputs(messages);
    const turn = this.script(this.seen);
    const message =
      'text' in turn
        ? new AIMessage(turn.text)
        : new AIMessage({
            content: '',
            tool_calls: turn.calls.map((call) => ({ id: this.nextId(), name: call.name, args: call.args, type: 'tool_call' as const })),
          });
    return { generations: [{ message, text: 'text' in turn ? turn.text : '' }] };
  }

  /** The script knows its tools: binding them changes nothing. */
  override bindTools(): this {
    return this;
  }
}
