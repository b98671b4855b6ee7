import t from 'tap';
import { GenericEnvClient } from '../../helpers/openenv/generic-client.js';
import { MCPToolClient } from '../../helpers/openenv/mcp-tool-client.js';
import { modelOf } from '../../helpers/openenv/pydantic.js';
import { PythonError } from '../../helpers/openenv/python.js';

// The emulation of OpenEnv's clients checked against OpenEnv itself: each payload below went through OpenEnv
// 385de5eb's own MCPClientBase._parse_result / _parse_state and GenericEnvClient._parse_result (pydantic
// 2.13.4), and the verdict it gave is the one expected here: the model built and its model_dump, or the
// exception's type and the first line of its message. The conformance tests are only as good as this.

type Verdict = ['ok', string, unknown] | ['raise', string, string];

const VERDICTS: [kind: 'result' | 'state' | 'generic', payload: unknown, verdict: Verdict][] = [
  ['result', { observation: { tools: null, tool_name: null } }, ['raise', 'TypeError', "'NoneType' object is not iterable"]],
  ['result', { observation: { tools: [], tool_name: null } }, ['ok', 'ListToolsObservation', { done: false, reward: null, metadata: {}, tools: [] }]],
  ['result', { observation: { tool_name: null, result: 1 } }, ['raise', 'ValidationError', '1 validation error for CallToolObservation']],
  ['result', { observation: { tool_name: 'x', result: 1, tools: null } }, ['raise', 'TypeError', "'NoneType' object is not iterable"]],
  [
    'result',
    { observation: { tool_name: 'x', result: { data: 2 }, error: null }, done: false, reward: null },
    ['ok', 'CallToolObservation', { done: false, reward: null, metadata: {}, tool_name: 'x', result: { data: 2 }, error: null }],
  ],
  [
    'result',
    { observation: { tool_name: 'x', error: { error_type: 'oops', message: 'm' } } },
    ['raise', 'ValidationError', '1 validation error for ToolError'],
  ],
  [
    'result',
    { observation: { tool_name: 'x', error: { error_type: 'timeout', message: 'm', status: 500 } } },
    ['raise', 'ValidationError', '1 validation error for ToolError'],
  ],
  [
    'result',
    { observation: { tool_name: 'x', error: {} } },
    ['ok', 'CallToolObservation', { done: false, reward: null, metadata: {}, tool_name: 'x', result: null, error: null }],
  ],
  [
    'result',
    { observation: { tool_name: 'x', error: 'boom' } },
    ['raise', 'TypeError', 'openenv.core.env_server.mcp_types.ToolError() argument after ** must be a mapping, not str'],
  ],
  [
    'result',
    { observation: { tool_name: 'x', error: { error_type: 'timeout', message: 'm' } }, done: true, reward: 1 },
    ['ok', 'CallToolObservation', { done: true, reward: 1, metadata: {}, tool_name: 'x', result: null, error: { error_type: 'timeout', message: 'm' } }],
  ],
  ['result', { observation: { tools: [{ name: 'a', description: null, input_schema: {} }] } }, ['raise', 'ValidationError', '1 validation error for Tool']],
  [
    'result',
    { observation: { tools: [{ name: 'a', description: 'd', inputSchema: { type: 'object' } }] } },
    ['ok', 'ListToolsObservation', { done: false, reward: null, metadata: {}, tools: [{ name: 'a', description: 'd', input_schema: { type: 'object' } }] }],
  ],
  [
    'result',
    { observation: { tools: [{ name: 'a', description: 'd', input_schema: {}, title: 'x' }] } },
    ['ok', 'ListToolsObservation', { done: false, reward: null, metadata: {}, tools: [{ name: 'a', description: 'd', input_schema: {} }] }],
  ],
  [
    'result',
    { observation: { tools: [{ name: 'a' }] } },
    ['ok', 'ListToolsObservation', { done: false, reward: null, metadata: {}, tools: [{ name: 'a', description: '', input_schema: {} }] }],
  ],
  ['result', { observation: { tools: ['a'] } }, ['raise', 'AttributeError', "'str' object has no attribute 'get'"]],
  ['result', { observation: { tools: [{ name: 'a', description: 'd', input_schema: null }] } }, ['raise', 'ValidationError', '1 validation error for Tool']],
  ['result', { observation: { metadata: null } }, ['raise', 'ValidationError', '1 validation error for Observation']],
  [
    'result',
    { observation: { metadata: { ignored_kwargs: ['a'] }, tools: [] } },
    ['ok', 'ListToolsObservation', { done: false, reward: null, metadata: { ignored_kwargs: ['a'] }, tools: [] }],
  ],
  ['result', { observation: { message: 'hi' }, done: 'yes', reward: 0.5 }, ['ok', 'Observation', { done: true, reward: 0.5, metadata: {} }]],
  ['result', { observation: {}, done: null }, ['raise', 'ValidationError', '1 validation error for Observation']],
  ['result', { observation: {}, reward: '1' }, ['ok', 'Observation', { done: false, reward: true, metadata: {} }]],
  ['result', { observation: null }, ['raise', 'TypeError', "argument of type 'NoneType' is not iterable"]],
  ['result', {}, ['ok', 'Observation', { done: false, reward: null, metadata: {} }]],
  ['result', null, ['raise', 'AttributeError', "'NoneType' object has no attribute 'get'"]],
  ['state', { episode_id: 'e', step_count: 3, task: 't' }, ['ok', 'State', { episode_id: 'e', step_count: 3 }]],
  ['state', { episode_id: 5, step_count: 3 }, ['raise', 'ValidationError', '1 validation error for State']],
  ['state', { episode_id: null, step_count: -1 }, ['raise', 'ValidationError', '1 validation error for State']],
  ['state', { step_count: '3' }, ['ok', 'State', { episode_id: null, step_count: 3 }]],
  ['state', { step_count: 2.0 }, ['ok', 'State', { episode_id: null, step_count: 2 }]],
  ['state', { step_count: 2.5 }, ['raise', 'ValidationError', '1 validation error for State']],
  ['state', { step_count: true }, ['ok', 'State', { episode_id: null, step_count: 1 }]],
  ['state', {}, ['ok', 'State', { episode_id: null, step_count: 0 }]],
  ['generic', { observation: null }, ['ok', 'dict', { observation: null, reward: null, done: false }]],
  ['generic', {}, ['ok', 'dict', { observation: {}, reward: null, done: false }]],
  ['generic', { observation: { a: 1 }, reward: 1, done: true }, ['ok', 'dict', { observation: { a: 1 }, reward: 1, done: true }]],
  ['result', { observation: {}, reward: '0.5' }, ['ok', 'Observation', { done: false, reward: 0.5, metadata: {} }]],
  ['result', { observation: {}, reward: 'abc' }, ['raise', 'ValidationError', '3 validation errors for Observation']],
  ['result', { observation: {}, reward: [1] }, ['raise', 'ValidationError', '3 validation errors for Observation']],
  ['result', { observation: {}, done: 'true' }, ['ok', 'Observation', { done: true, reward: null, metadata: {} }]],
  ['result', { observation: {}, done: 2 }, ['raise', 'ValidationError', '1 validation error for Observation']],
  ['result', { observation: { tool_name: 5 } }, ['raise', 'ValidationError', '1 validation error for CallToolObservation']],
  ['result', { observation: { tool_name: 'x', error: { error_type: 'timeout' } } }, ['raise', 'ValidationError', '1 validation error for ToolError']],
  ['result', { observation: { tools: { a: 1 } } }, ['raise', 'AttributeError', "'str' object has no attribute 'get'"]],
  ['result', { observation: { tools: 'ab' } }, ['raise', 'AttributeError', "'str' object has no attribute 'get'"]],
  ['result', { observation: { metadata: [] } }, ['raise', 'ValidationError', '1 validation error for Observation']],
];

const mcp = new MCPToolClient('http://127.0.0.1:1');
const generic = new GenericEnvClient('http://127.0.0.1:1');

function verdictOf(kind: 'result' | 'state' | 'generic', payload: unknown): Verdict {
  try {
    if (kind === 'generic') return ['ok', 'dict', generic.parseResult(payload)];
    const built = kind === 'state' ? mcp.parseState(payload) : mcp.parseResult(payload).observation;
    return ['ok', modelOf(built)!, JSON.parse(JSON.stringify(built))];
  } catch (error) {
    if (!(error instanceof PythonError)) throw error;
    return ['raise', error.pyType, error.message.split('\n')[0]!];
  }
}

t.test("the emulated parse gives OpenEnv's verdict on each payload", async (t) => {
  for (const [kind, payload, verdict] of VERDICTS) t.same(verdictOf(kind, payload), verdict, `${kind} ${JSON.stringify(payload)}`);
});
