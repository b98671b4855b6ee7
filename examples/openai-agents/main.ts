import { cliOptions, report } from '../shared/cli.js';
import { WildtoolsSession } from '../shared/wildtools.js';
import { runAgent } from './agent.js';
import { cancelOrderPrompt, cancelOrderScript } from './script.js';
import { ScriptedModel } from './scripted-model.js';

// OPENAI_API_KEY=… npx tsx examples/openai-agents/main.ts ["what the user asks"]
// npx tsx examples/openai-agents/main.ts --scripted        (the scripted stand-in: no key, no network)

/** A pending order of the default data, as the README's examples use it. */
const DEMO = { email: 'malik.okonkwo3001@example.com', orderId: '#W5124601' };

const { scripted, prompt = cancelOrderPrompt(DEMO) } = cliOptions();
const session = await WildtoolsSession.create();
const model = scripted ? new ScriptedModel(cancelOrderScript(DEMO)) : (process.env['OPENAI_MODEL'] ?? 'gpt-4.1');
await report(session, await runAgent({ session, domain: 'retail', prompt, model, tracing: !scripted }));
