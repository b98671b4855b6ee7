import type { AgentInputItem, Model, ModelRequest, ModelResponse } from '@openai/agents';
import { Usage } from '@openai/agents';
import { callIds, type Script, type SeenOutput } from '../shared/script.js';

// A stand-in for a model, implementing the SDK's Model interface: its turns come from a script.

/** The tool outputs in the conversation the runner sent, as the model reads them. */
function toolOutputs(input: ModelRequest['input']): SeenOutput[] {
  if (typeof input === 'string') return [];
  return input.flatMap((item: AgentInputItem) => {
    if (item.type !== 'function_call_result') return [];
    const output = typeof item.output === 'string' ? item.output : 'text' in item.output ? item.output.text : JSON.stringify(item.output);
    return [{ name: item.name, output }];
  });
}

export class ScriptedModel implements Model {
  /** The tool outputs handed to the model at its latest turn. */
  seen: SeenOutput[] = [];
  private readonly nextId = callIds();

  constructor(private readonly script: Script) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.seen = toolOutputs(request.input);
    const turn = this.script(this.seen);
    const output: ModelResponse['output'] =
      'text' in turn
        ? [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: turn.text }] }]
        : turn.calls.map((call) => ({
            type: 'function_call',
            callId: this.nextId(),
            name: call.name,
            arguments: JSON.stringify(call.args),
            status: 'completed',
          }));
    return { usage: new Usage(), output };
  }

  // biome-ignore lint/correctness/useYield: the examples never stream; a stand-in that is asked to fails loudly
  async *getStreamedResponse(): ReturnType<Model['getStreamedResponse']> {
    throw new Error('the scripted model does not stream');
  }
}
