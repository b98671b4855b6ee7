import { openai } from '@ai-sdk/openai';
import { cliOptions, report } from '../shared/cli.js';
import { WildtoolsSession } from '../shared/wildtools.js';
import { runAi } from './agent.js';
import { dimLightPrompt, dimLightScript } from './script.js';
import { ScriptedModel } from './scripted-model.js';

// OPENAI_API_KEY=… npx tsx examples/vercel-ai/main.ts ["what the user asks"]
// npx tsx examples/vercel-ai/main.ts --scripted        (the scripted stand-in: no key, no network)

/** A dimmable light of the default data that is off, as the README's examples use it. */
const DEMO = { endpoint: 'PendantLights_6', brightness: 30 };

const { scripted, prompt = dimLightPrompt(DEMO) } = cliOptions();
const session = await WildtoolsSession.create();
const model = scripted ? new ScriptedModel(dimLightScript(DEMO)) : openai(process.env['OPENAI_MODEL'] ?? 'gpt-4.1');
await report(session, await runAi({ session, domain: 'smart-home', prompt, model }));
