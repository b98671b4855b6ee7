import { ChatOpenAI } from '@langchain/openai';
import { cliOptions, report } from '../shared/cli.js';
import { WildtoolsSession } from '../shared/wildtools.js';
import { runLoop } from './agent.js';
import { addBagPrompt, addBagScript } from './script.js';
import { ScriptedChatModel } from './scripted-model.js';

// OPENAI_API_KEY=… npx tsx examples/langchain/main.ts ["what the user asks"]
// npx tsx examples/langchain/main.ts --scripted        (the scripted stand-in: no key, no network)

/** A reservation of the default data whose owner has a travel certificate and a credit card. */
const DEMO = { reservationId: 'Z8U7L7' };

const { scripted, prompt = addBagPrompt(DEMO) } = cliOptions();
const session = await WildtoolsSession.create();
const model = scripted ? new ScriptedChatModel(addBagScript(DEMO)) : new ChatOpenAI({ model: process.env['OPENAI_MODEL'] ?? 'gpt-4.1' });
await report(session, await runLoop({ session, domain: 'airline', prompt, model }));
