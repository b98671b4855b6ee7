import t from 'tap';
import { domains } from '../../domains/index.js';
import { HazardConfigError } from '../../hazards/config.js';
import { HazardEngine } from '../../hazards/engine.js';
import { hazardsFromEnvironment } from '../../hazards/setup.js';
import { Session } from '../../server/core/sessions/session.js';
import { FAMILIES } from '../../hazards/catalog.js';

/** The retail cells switched on for a session, as "tool kind p (source)" (other domains have their own scenarios). */
function onCells(env: NodeJS.ProcessEnv, options: ConstructorParameters<typeof Session>[1] = {}) {
  const { engine, seed } = hazardsFromEnvironment(env, domains);
  const session = new Session('s', options, new Map(), 0, seed ?? '0');
  return engine
    .matrix(session)
    .filter((c) => c.probability > 0 && c.domain === 'retail')
    .map((c) => `${c.tool} ${c.kind} ${c.probability} (${c.source})`);
}

t.test('nothing is on by default', async (t) => {
  t.same(onCells({}), []);
  const engine = new HazardEngine({ domains });
  const cells = engine.matrix(new Session('s', {}, new Map(), 0, '0'));
  t.ok(cells.length > 30, 'every assigned cell is listed');
  t.ok(cells.every((c) => c.probability === 0 && c.source === 'default (off)' && c.assigned));
});

t.test('HAZARDS takes kinds, families, the five groups, all and none, at HAZARD_RATE', async (t) => {
  t.same(onCells({ HAZARDS: 'outage' }), [
    'search_product outage 1 (HAZARDS=outage)',
    'track_order outage 1 (HAZARDS=outage)',
    'transfer_to_human_agents outage 1 (HAZARDS=outage)',
  ]);
  const failures = onCells({ HAZARDS: 'failures', HAZARD_RATE: '0.25' });
  t.ok(failures.length > 10);
  const execution = new RegExp(` (${FAMILIES.execution.join('|')}) 0\\.25 \\(HAZARDS=failures\\)$`);
  t.ok(
    failures.every((cell) => execution.test(cell)),
    'failures = the execution family',
  );
  t.same(onCells({ HAZARDS: 'execution' }).length, failures.length, 'a family name works too');
  t.ok(onCells({ HAZARDS: 'drift' }).every((cell) => / (spec_drift|output_drift) /.test(cell)));
  t.ok(
    onCells({ HAZARDS: 'sponsored' }).every((cell) => / (sponsored|notice|redundant) /.test(cell)),
    'sponsored = sponsored + notice + redundant',
  );
  t.same(onCells({ HAZARDS: 'conflict' }), ['get_product_details conflict 1 (HAZARDS=conflict)']);
  t.ok(onCells({ HAZARDS: 'adhoc' }).every((cell) => / adhoc_rule /.test(cell)));
  t.same(onCells({ HAZARDS: 'all' }).length, onCells({ HAZARDS: 'specification,invocation,execution,output,cross-source' }).length);
  t.same(onCells({ HAZARDS: 'all,none' }), [], 'a later none switches everything off');
});

t.test('per kind and per tool variables, on/off/probability, and their precedence', async (t) => {
  t.same(onCells({ HAZARD__OUTAGE: '0.5' }), [
    'search_product outage 0.5 (HAZARD__OUTAGE)',
    'track_order outage 0.5 (HAZARD__OUTAGE)',
    'transfer_to_human_agents outage 0.5 (HAZARD__OUTAGE)',
  ]);
  t.same(onCells({ HAZARD__FEATURE_LIMIT__TRACK_ORDER: 'on' }), ['track_order feature_limit 1 (HAZARD__FEATURE_LIMIT__TRACK_ORDER)']);
  t.same(
    onCells({ HAZARDS: 'outage', HAZARD__OUTAGE__SEARCH_PRODUCT: 'off' }),
    ['track_order outage 1 (HAZARDS=outage)', 'transfer_to_human_agents outage 1 (HAZARDS=outage)'],
    'a tool setting beats the group',
  );
  t.same(
    onCells({ HAZARD__OUTAGE: '0.2', HAZARD__OUTAGE__TRACK_ORDER: '0.9' }),
    [
      'search_product outage 0.2 (HAZARD__OUTAGE)',
      'track_order outage 0.9 (HAZARD__OUTAGE__TRACK_ORDER)',
      'transfer_to_human_agents outage 0.2 (HAZARD__OUTAGE)',
    ],
    'a tool setting beats the kind setting',
  );
  t.same(
    onCells({ HAZARD__TRANSIENT_FAILURE__GET_USER_DETAILS: 'on', HAZARD_RATE: '0.3' }),
    ['get_user_details transient_failure 0.3 (HAZARD__TRANSIENT_FAILURE__GET_USER_DETAILS)'],
    'generic kinds reach any tool by name; on = HAZARD_RATE',
  );
  const { engine } = hazardsFromEnvironment({ HAZARD__TRANSIENT_FAILURE__GET_USER_DETAILS: 'on' }, domains);
  const everywhere = engine
    .matrix(new Session('s', {}, new Map(), 0, '0'))
    .filter((c) => c.probability > 0)
    .map((c) => `${c.domain}/${c.tool}`);
  t.same(
    everywhere,
    domains.filter((d) => d.tools.some((tool) => tool.name === 'get_user_details')).map((d) => `${d.name}/get_user_details`),
    'a bare tool name reaches it in every domain that has it',
  );
  t.same(
    onCells({ HAZARD__TRANSIENT_FAILURE__RETAIL__CHECKOUT: '0.4' }),
    ['checkout transient_failure 0.4 (HAZARD__TRANSIENT_FAILURE__RETAIL__CHECKOUT)'],
    'domain__tool names one domain',
  );
});

t.test('WildAgtEval-style ENABLE__ aliases', async (t) => {
  t.same(onCells({ ENABLE__ADHOC__TRACK_ORDER: 'true' }), ['track_order adhoc_rule 1 (ENABLE__ADHOC__TRACK_ORDER)']);
  t.same(onCells({ ENABLE__FEATURE_LIMITATION_ERROR__LIST_USER_ORDERS: 'true' }), [
    'list_user_orders feature_limit 1 (ENABLE__FEATURE_LIMITATION_ERROR__LIST_USER_ORDERS)',
  ]);
  t.same(onCells({ ENABLE__SYSTEM_FAILURE_ERROR__CHECKOUT: 'true' }), ['checkout transient_failure 1 (ENABLE__SYSTEM_FAILURE_ERROR__CHECKOUT)']);
  t.same(onCells({ ENABLE__INFORMATIONAL_NOTICE__VIEW_CART: 'true' }), ['view_cart notice 1 (ENABLE__INFORMATIONAL_NOTICE__VIEW_CART)']);
  t.same(onCells({ ENABLE__PARTIALLY_IRRELEVANT_INFORMATION__TRACK_ORDER: 'true' }), [
    'track_order redundant 1 (ENABLE__PARTIALLY_IRRELEVANT_INFORMATION__TRACK_ORDER)',
  ]);
  t.same(onCells({ HAZARDS: 'notice', ENABLE__INFORMATIONAL_NOTICE__VIEW_CART: 'false' }), ['get_user_details notice 1 (HAZARDS=notice)']);
});

t.test('a config file, then the runtime, then the session: each over the one before', async (t) => {
  const dir = t.testdir({
    'hazards.json': JSON.stringify({
      seed: 99,
      hints: true,
      enable: ['outage'],
      kinds: { conflict: 0.5 },
      tools: { track_order: { outage: 'off' } },
      max_consecutive: 3,
      latency_ms: 10,
    }),
  });
  const { engine, seed } = hazardsFromEnvironment({ HAZARD__OUTAGE: '0.1', HAZARD__CONFLICT: '1', HAZARD_CONFIG: `${dir}/hazards.json` }, domains);
  t.equal(seed, '99', 'the file sets the default seed');
  const session = new Session('s', {}, new Map(), 0, seed!);
  const cell = (tool: string, kind: string) => engine.matrix(session).find((c) => c.tool === tool && c.kind === kind)!;
  t.match(cell('track_order', 'outage'), { probability: 0, source: /hazards\.json tools\.track_order\.outage/ });
  t.match(cell('search_product', 'outage'), { probability: 1, source: /hazards\.json enable outage/ });
  t.match(cell('get_product_details', 'conflict'), { probability: 0.5, source: /hazards\.json kinds\.conflict/ });
  t.same(engine.settings(session), { hints: true, maxConsecutive: 3, latencyMs: 10 });

  engine.setRuntime({ kinds: { conflict: 'off' }, hints: false });
  t.match(cell('get_product_details', 'conflict'), { probability: 0, source: /PUT \/admin\/hazards/ });
  t.equal(engine.settings(session).hints, false);

  const own = new Session('own', { hazards: { kinds: { conflict: 0.7 } } }, new Map(), 0, '1');
  t.match(
    engine.matrix(own).find((c) => c.kind === 'conflict'),
    { probability: 0.7, source: 'session own kinds.conflict' },
    'session options come last',
  );
  engine.setRuntime(undefined);
  t.match(cell('get_product_details', 'conflict'), { probability: 0.5 }, 'clearing the runtime restores the file');
});

t.test('every bad word stops startup with the variable and the word', async (t) => {
  const cases: [NodeJS.ProcessEnv, RegExp][] = [
    [{ HAZARDS: 'failures,gremlins' }, /^HAZARDS: unknown hazard kind or group 'gremlins'/],
    [{ HAZARD__GREMLINS: '1' }, /^HAZARD__GREMLINS: unknown hazard kind 'GREMLINS'/],
    [{ HAZARD__OUTAGE__LAUNCH_ROCKET: 'on' }, /^HAZARD__OUTAGE__LAUNCH_ROCKET: unknown tool 'LAUNCH_ROCKET'/],
    [
      { HAZARD__OUTAGE__GET_USER_DETAILS: 'on' },
      /^HAZARD__OUTAGE__GET_USER_DETAILS: tool 'GET_USER_DETAILS' has no outage scenario \(tools with one: .*track_order/,
    ],
    [{ HAZARD__OUTAGE: 'sometimes' }, /^HAZARD__OUTAGE: 'sometimes' is not on, off or a probability/],
    [{ HAZARD__OUTAGE: '1.5' }, /^HAZARD__OUTAGE: '1.5' is not on, off or a probability/],
    [{ HAZARD_RATE: 'on' }, /^HAZARD_RATE: 'on' is not a probability/],
    [{ HAZARD_HINTS: 'yes' }, /^HAZARD_HINTS: 'yes' is not 1, 0, true or false/],
    [{ HAZARD_MAX_CONSECUTIVE: '0' }, /^HAZARD_MAX_CONSECUTIVE: '0'/],
    [{ HAZARD_LATENCY_MS: 'slow' }, /^HAZARD_LATENCY_MS: 'slow'/],
    [{ HAZARD_RATES: '1' }, /^HAZARD_RATES: unknown hazard variable/],
    [{ ENABLE__GREMLIN__TRACK_ORDER: 'true' }, /^ENABLE__GREMLIN__TRACK_ORDER: unknown type 'GREMLIN'/],
    [{ HAZARD_CONFIG: '/nonexistent/hazards.json' }, /^HAZARD_CONFIG=\/nonexistent\/hazards\.json: cannot read it \(ENOENT\)$/],
  ];
  for (const [env, message] of cases) t.throws(() => hazardsFromEnvironment(env, domains), { constructor: HazardConfigError, message }, Object.keys(env)[0]!);

  const dir = t.testdir({ 'bad.json': JSON.stringify({ kinds: { gremlins: 1 } }), 'shape.json': JSON.stringify({ colour: 'red' }) });
  t.throws(() => hazardsFromEnvironment({ HAZARD_CONFIG: `${dir}/bad.json` }, domains), {
    message: /bad\.json: kinds\.gremlins: unknown hazard kind 'gremlins'/,
  });
  t.throws(() => hazardsFromEnvironment({ HAZARD_CONFIG: `${dir}/shape.json` }, domains), { message: /shape\.json: \(root\): Unrecognized key: "colour"/ });
});

t.test('inherited names are unknown words everywhere settings are read', async (t) => {
  const inherited = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
  for (const word of inherited) {
    t.throws(
      () => hazardsFromEnvironment({ HAZARDS: word }, domains),
      { constructor: HazardConfigError, message: `HAZARDS: unknown hazard kind or group '${word}'` },
      `HAZARDS=${word}`,
    );
    t.throws(
      () => hazardsFromEnvironment({ [`HAZARD__OUTAGE__${word}`]: 'on' }, domains),
      { constructor: HazardConfigError, message: /unknown tool/ },
      `HAZARD__OUTAGE__${word}`,
    );
    const engine = hazardsFromEnvironment({}, domains).engine;
    t.throws(
      () => engine.setRuntime({ enable: [word] }),
      { constructor: HazardConfigError, message: /enable: unknown hazard kind or group/ },
      `enable ${word}`,
    );
    t.throws(() => engine.setRuntime({ kinds: { [word]: 'on' } }), { constructor: HazardConfigError, message: /unknown hazard kind/ }, `kinds.${word}`);
    t.throws(() => engine.setRuntime({ tools: { [word]: { outage: 'on' } } }), { constructor: HazardConfigError, message: /unknown tool/ }, `tools.${word}`);
    t.throws(() => engine.check({ enable: [word] }), { constructor: HazardConfigError, message: /unknown hazard kind or group/ }, `a session's enable ${word}`);
  }
  t.throws(() => hazardsFromEnvironment({ ENABLE__CONSTRUCTOR__TRACK_ORDER: 'true' }, domains), { message: /unknown type 'CONSTRUCTOR'/ });
  const dir = t.testdir({ 'proto.json': '{"kinds": {"__proto__": {"outage": "on"}}}' });
  t.throws(
    () => hazardsFromEnvironment({ HAZARD_CONFIG: `${dir}/proto.json` }, domains),
    { constructor: HazardConfigError, message: /proto\.json: cannot read it as JSON .*__proto__/ },
    'a __proto__ key in the file is refused, not dropped',
  );
});
