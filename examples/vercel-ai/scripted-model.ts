import { MockLanguageModelV3 } from 'ai/test';
import { callIds, type Script, type SeenOutput } from '../shared/script.js';

// A stand-in for a model: the AI SDK's mock language model, whose turns come from a script.

type CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type ToolResultOutput = Extract<CallOptions['prompt'][number], { role: 'tool' }>['content'][number] & { type: 'tool-result' };

const textOf = (output: ToolResultOutput['output']): string => ('value' in output && typeof output.value === 'string' ? output.value : JSON.stringify(output));

/** The tool results in the prompt the SDK sent, as the model reads them. */
function toolOutputs(prompt: CallOptions['prompt']): SeenOutput[] {
  return prompt.flatMap((message) =>
    message.role === 'tool'
      ? message.content.flatMap((part) => (part.type === 'tool-result' ? [{ name: part.toolName, output: textOf(part.output) }] : []))
      : [],
  );
}

const NO_USAGE: GenerateResult['usage'] = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

export class ScriptedModel extends MockLanguageModelV3 {
  /** The tool outputs handed to the model at its latest turn. */
  seen: SeenOutput[] = [];

  constructor(script: Script) {
    const nextId = callIds();
    super({
      doGenerate: async ({ prompt }): Promise<GenerateResult> => {
        this.seen = toolOutputs(prompt);
        const turn = script(this.seen);
        if ('text' in turn)
          return { content: [{ type: 'text', text: turn.text }], finishReason: { unified: 'stop', raw: 'stop' }, usage: NO_USAGE, warnings: [] };
        return {
          content: turn.calls.map((call) => ({ type: 'tool-call', toolCallId: nextId(), toolName: call.name, input: JSON.stringify(call.args) })),
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage: NO_USAGE,
          warnings: [],
        };
      },
    });
  }
}
