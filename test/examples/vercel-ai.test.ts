import t from 'tap';
import { runAi } from '../../examples/vercel-ai/agent.js';
import { dimLightPrompt, dimLightScript } from '../../examples/vercel-ai/script.js';
import { ScriptedModel } from '../../examples/vercel-ai/scripted-model.js';
import { WildtoolsSession } from '../../examples/shared/wildtools.js';
import { findDevice } from '../domains/smart-home/helpers.js';
import { startServer } from '../helpers/server.js';

t.test('a Vercel AI SDK generateText run turns on a light and dims it, reading a refusal on the way', async (t) => {
  const server = await startServer(t);
  const light = findDevice((d) => d.capabilities.includes('brightness') && d.online && d.state.power === 'off', 'dimmable light that is off');
  const task = { endpoint: light.endpoint, brightness: light.state.brightness === 30 ? 40 : 30 };
  const session = await WildtoolsSession.create(server.origin);
  const model = new ScriptedModel(dimLightScript(task));

  const final = await runAi({ session, domain: 'smart-home', prompt: dimLightPrompt(task), model });

  t.same(
    model.seen.map((seen) => seen.name),
    ['brightness_adjust', 'power_on', 'brightness_adjust'],
    'every tool output was handed back to the model',
  );
  t.match(model.seen[0]?.output, /^Error: HTTP 409 .*"code":"device_off"/, 'the refusal is the tool output, not an exception');
  const diff = await session.diff();
  t.match(diff['smart-home'], [{ table: 'devices', id: light.endpoint, op: 'update', after: { state: { power: 'on', brightness: task.brightness } } }]);
  t.equal(diff['smart-home']?.length, 1, 'the light is the only change');
  t.equal(final, `${light.endpoint} is on at ${task.brightness}%.`);
});
