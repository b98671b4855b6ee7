import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import t, { type Test } from 'tap';
import { runLoop } from '../../examples/langchain/agent.js';
import { addBagPrompt, addBagScript } from '../../examples/langchain/script.js';
import { ScriptedChatModel } from '../../examples/langchain/scripted-model.js';
import { runAgent } from '../../examples/openai-agents/agent.js';
import { cancelOrderPrompt, cancelOrderScript } from '../../examples/openai-agents/script.js';
import { ScriptedModel as AgentsModel } from '../../examples/openai-agents/scripted-model.js';
import { type DiffEntry, WildtoolsSession } from '../../examples/shared/wildtools.js';
import { runAi } from '../../examples/vercel-ai/agent.js';
import { dimLightPrompt, dimLightScript } from '../../examples/vercel-ai/script.js';
import { ScriptedModel as AiModel } from '../../examples/vercel-ai/scripted-model.js';
import { startServer } from '../helpers/server.js';

// The examples' READMEs say: start the server with HAZARDS=failures and watch the agent cope. Each scripted agent,
// run in several sessions (each meets other faults), must either claim what the session's diff shows, or say it
// could not and claim nothing; and the runs as a whole must meet faults and still succeed.

const server = await startServer(t, { hazardEnv: { HAZARDS: 'failures', HAZARD_SEED: '42' } });
const RUNS = 8;
const GAVE_UP = /^I could not /;

interface Run {
  answer: string;
  diff: Record<string, DiffEntry[]>;
  faults: number;
}

async function faultsOf(session: string): Promise<number> {
  const journal = await server.journal<{ hazards?: unknown[] }>(session);
  return journal.filter((entry) => (entry.hazards ?? []).length > 0).length;
}

async function finished(session: WildtoolsSession, answer: string): Promise<Run> {
  return { answer, diff: await session.diff(), faults: await faultsOf(session.id) };
}

/** Checks every run's claim against its diff; at least one run met a fault, and at least one of those succeeded. */
function checkRuns(t: Test, runs: Run[], claim: RegExp, holds: (match: RegExpExecArray, diff: Record<string, DiffEntry[]>) => boolean): void {
  for (const [index, run] of runs.entries()) {
    const match = claim.exec(run.answer);
    if (match) t.ok(holds(match, run.diff), `run ${index}: the claim "${run.answer}" is what the diff shows`, { found: run.diff });
    else {
      t.match(run.answer, GAVE_UP, `run ${index}: no claim, it says it could not`);
      t.notMatch(run.answer, /undefined|None/, `run ${index}: no made-up value`);
    }
  }
  t.ok(
    runs.some((run) => run.faults > 0 && claim.test(run.answer)),
    'a run met faults and still did the task',
    { runs: runs.map(({ answer, faults }) => ({ answer, faults })) },
  );
}

const onlyChange = (diff: Record<string, DiffEntry[]>, domain: string, id: string): DiffEntry | undefined =>
  Object.values(diff).flat().length === 1 ? diff[domain]?.find((entry) => entry.id === id) : undefined;

const DEMO_ORDER = { email: 'malik.okonkwo3001@example.com', orderId: '#W5124601' };
const cancelled = (match: RegExpExecArray, diff: Record<string, DiffEntry[]>): boolean => {
  const after = onlyChange(diff, 'retail', DEMO_ORDER.orderId)?.after;
  const refunds = (after?.['payment_history'] as { transaction_type: string }[] | undefined)?.filter((entry) => entry.transaction_type === 'refund');
  return match[1] === after?.['status'] && refunds?.length === 1;
};
const CANCEL_CLAIM = /^Order #W5124601 is now (\w+)\.$/;

t.test('OpenAI Agents SDK: the order is cancelled once, or the agent says it could not', async (t) => {
  const runs: Run[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const session = await WildtoolsSession.create(server.origin);
    const model = new AgentsModel(cancelOrderScript(DEMO_ORDER));
    runs.push(await finished(session, await runAgent({ session, domain: 'retail', prompt: cancelOrderPrompt(DEMO_ORDER), model })));
  }
  checkRuns(t, runs, CANCEL_CLAIM, cancelled);
});

t.test('Python: the order is cancelled once, or the agent says it could not', async (t) => {
  const script = new URL('../../examples/python/agent.py', import.meta.url).pathname;
  const runs: Run[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const id = `python-failures-${run}`;
    const { stdout } = await promisify(execFile)('python3', [script, '--scripted', '--json', '--session', id], {
      env: { ...process.env, WILDTOOLS_URL: server.origin },
      timeout: 60_000,
    });
    const printed = JSON.parse(stdout) as { answer: string };
    runs.push({ answer: printed.answer, diff: (await server.request('GET', `/sessions/${id}/diff`)).body, faults: await faultsOf(id) });
  }
  checkRuns(t, runs, CANCEL_CLAIM, cancelled);
});

t.test('Vercel AI SDK: the light is at the brightness claimed, or the agent says it could not', async (t) => {
  const task = { endpoint: 'PendantLights_6', brightness: 30 };
  const runs: Run[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const session = await WildtoolsSession.create(server.origin);
    runs.push(await finished(session, await runAi({ session, domain: 'smart-home', prompt: dimLightPrompt(task), model: new AiModel(dimLightScript(task)) })));
  }
  checkRuns(t, runs, /^PendantLights_6 is on at (\d+)%\.$/, (match, diff) => {
    const state = onlyChange(diff, 'smart-home', task.endpoint)?.after?.['state'] as { power?: string; brightness?: number } | undefined;
    return state?.power === 'on' && state.brightness === Number(match[1]);
  });
});

t.test('LangChain: the reservation has the bags claimed, paid once, or the agent says it could not', async (t) => {
  const task = { reservationId: 'Z8U7L7' };
  const runs: Run[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const session = await WildtoolsSession.create(server.origin);
    runs.push(
      await finished(session, await runLoop({ session, domain: 'airline', prompt: addBagPrompt(task), model: new ScriptedChatModel(addBagScript(task)) })),
    );
  }
  checkRuns(t, runs, /^Reservation Z8U7L7 now has (\d+) checked bags\.$/, (match, diff) => {
    const change = onlyChange(diff, 'airline', task.reservationId);
    const paid = (change?.after?.['payment_history'] as unknown[] | undefined)?.length ?? 0;
    const before = (change?.before?.['payment_history'] as unknown[] | undefined)?.length ?? 0;
    return change?.after?.['total_baggages'] === Number(match[1]) && paid === before + 1;
  });
});
