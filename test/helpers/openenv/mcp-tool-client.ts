import { EnvClient, pyStr, type StepResult } from './env-client.js';
import { CallToolObservation, construct, ListToolsObservation, modelOf, Observation, State, Tool, ToolError } from './pydantic.js';
import { get, has, isDict, iterate, type PyDict, PythonError, truthy, typeName } from './python.js';

// OpenEnv's MCPToolClient (src/openenv/core/mcp_client.py, MCPClientBase and MCPToolClient). Simulation mode
// (the default: use_production_mode False) drives tools as steps over the WebSocket and builds typed
// observations from each answer; production mode (use_production_mode True) speaks JSON-RPC over
// HTTP POST <base>/mcp in a session of its own.

/** env_server/mcp_types.py ListToolsAction. */
export interface ListToolsAction {
  action: 'ListToolsAction';
}
/** env_server/mcp_types.py CallToolAction. */
export interface CallToolAction {
  action: 'CallToolAction';
  tool_name: string;
  arguments: PyDict;
}
export type McpAction = ListToolsAction | CallToolAction;

export const listToolsAction = (): ListToolsAction => ({ action: 'ListToolsAction' });
export const callToolAction = (tool_name: string, args: PyDict = {}): CallToolAction => ({ action: 'CallToolAction', tool_name, arguments: args });

export class MCPToolClient extends EnvClient<McpAction, PyDict, PyDict> {
  /** mcp_client.py MCPClientBase.use_production_mode. */
  readonly useProductionMode: boolean;
  /** Each JSON-RPC request sent in production mode, in order (method and params). */
  readonly rpcLog: { method: string; params: PyDict }[] = [];
  private toolsCache: PyDict[] | undefined;
  private productionSessionId: string | undefined;
  private sessionCreation: Promise<string> | undefined;
  private requestId = 0;

  constructor(baseUrl: string, options: { useProductionMode?: boolean; messageTimeoutMs?: number } = {}) {
    super(baseUrl, options);
    this.useProductionMode = options.useProductionMode ?? false;
  }

  /** The production session's id once created (mcp_client.py MCPClientBase._production_session_id). */
  get sessionId(): string | undefined {
    return this.productionSessionId;
  }

  /** mcp_client.py MCPClientBase._production_mcp_url: the WebSocket URL back to http(s), without /ws, plus /mcp. */
  productionMcpUrl(): string {
    let url = this.wsUrl.replace('ws://', 'http://').replace('wss://', 'https://');
    if (url.endsWith('/ws')) url = url.slice(0, -'/ws'.length);
    return `${url.replace(/\/+$/, '')}/mcp`;
  }

  /** mcp_client.py MCPClientBase._production_mcp_request: `{"jsonrpc": "2.0", method, params or {}, id: n}`; raise_for_status, then .json(). */
  private async productionRequest(method: string, params?: PyDict): Promise<unknown> {
    const body = { jsonrpc: '2.0', method, params: params && Object.keys(params).length > 0 ? params : {}, id: ++this.requestId };
    this.rpcLog.push({ method, params: body.params });
    const response = await fetch(this.productionMcpUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(this.messageTimeoutMs),
    });
    const text = await response.text();
    if (response.status >= 400) throw new PythonError('HTTPStatusError', `${response.status} for url '${this.productionMcpUrl()}': ${text.slice(0, 200)}`);
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new PythonError('JSONDecodeError', (error as Error).message);
    }
  }

  /** mcp_client.py MCPClientBase._ensure_production_session: openenv/session/create once (no params), its result.session_id kept. */
  private ensureProductionSession(): Promise<string> {
    if (this.productionSessionId !== undefined) return Promise.resolve(this.productionSessionId);
    // The lock: concurrent callers share one creation.
    this.sessionCreation ??= (async () => {
      try {
        const data = await this.productionRequest('openenv/session/create');
        if (has(data, 'error'))
          throw new PythonError('RuntimeError', `Failed to create MCP session: ${pyStr(get(get(data, 'error', {}), 'message', 'unknown error'))}`);
        const sessionId = get(get(data, 'result', {}), 'session_id');
        if (!truthy(sessionId)) throw new PythonError('RuntimeError', 'Failed to create MCP session: missing session_id');
        this.productionSessionId = sessionId as string;
        return this.productionSessionId;
      } finally {
        this.sessionCreation = undefined;
      }
    })();
    return this.sessionCreation;
  }

  /**
   * mcp_client.py MCPClientBase.list_tools(use_cache): in production mode tools/list with the session's id (any failure
   * gives [], as OpenEnv swallows it); in simulation mode the ListToolsAction step, [] unless it observed a
   * ListToolsObservation.
   */
  async listTools(useCache = true): Promise<PyDict[]> {
    if (useCache && this.toolsCache !== undefined) return this.toolsCache;
    if (this.useProductionMode) {
      try {
        const sessionId = await this.ensureProductionSession();
        const data = await this.productionRequest('tools/list', { session_id: sessionId });
        if (has(data, 'error')) throw new PythonError('RuntimeError', `list_tools failed: ${pyStr(get(get(data, 'error', {}), 'message', 'unknown error'))}`);
        const result = get(data, 'result');
        if (has(data, 'result') && has(result, 'tools')) {
          this.toolsCache = iterate(get(result, 'tools')).map(toolOf);
          return this.toolsCache;
        }
      } catch {
        // OpenEnv: "If HTTP request fails, return empty list".
      }
      return [];
    }
    const { observation } = await this.step(listToolsAction());
    this.toolsCache = modelOf(observation) === 'ListToolsObservation' ? (observation['tools'] as PyDict[]) : [];
    return this.toolsCache;
  }

  /**
   * mcp_client.py MCPToolClient.call_tool(name, **kwargs). Production: tools/call with name, arguments and session_id; a
   * JSON-RPC error raises RuntimeError("Tool '{name}' failed: {message}"). Simulation: the CallToolAction
   * step; an observed error raises RuntimeError("Tool '{name}' failed: {message} (type: {error_type})").
   * Either way a result dict holding "data" gives its data.
   */
  async callTool(name: string, kwargs: PyDict = {}): Promise<unknown> {
    if (this.useProductionMode) {
      const sessionId = await this.ensureProductionSession();
      const data = await this.productionRequest('tools/call', { name, arguments: kwargs, session_id: sessionId });
      if (has(data, 'error')) throw new PythonError('RuntimeError', `Tool '${name}' failed: ${pyStr(get(get(data, 'error', {}), 'message', 'unknown error'))}`);
      const result = get(data, 'result');
      return isDict(result) && has(result, 'data') ? result['data'] : result;
    }
    const { observation } = await this.step(callToolAction(name, kwargs));
    if (modelOf(observation) !== 'CallToolObservation') return observation;
    const error = observation['error'] as PyDict | null;
    if (error !== null) throw new PythonError('RuntimeError', `Tool '${name}' failed: ${error['message']} (type: ${error['error_type']})`);
    const result = observation['result'];
    return isDict(result) && has(result, 'data') ? result['data'] : result;
  }

  /** mcp_client.py MCPClientBase._step_payload: the two MCP actions as their wire messages. */
  stepPayload(action: McpAction): PyDict {
    if (action.action === 'ListToolsAction') return { type: 'list_tools' };
    return { type: 'call_tool', tool_name: action.tool_name, arguments: action.arguments };
  }

  /**
   * mcp_client.py MCPClientBase._parse_result: `"tools" in obs_data` builds a ListToolsObservation from the iterated
   * list; else `"tool_name" in obs_data` a CallToolObservation (a truthy error becomes ToolError(**error));
   * else a bare Observation. Pydantic validates each.
   */
  parseResult(payload: unknown): StepResult<PyDict> {
    const obs = get(payload, 'observation', {});
    const done = get(payload, 'done', false);
    const reward = get(payload, 'reward');
    let observation: PyDict;
    if (has(obs, 'tools')) {
      const tools = iterate(get(obs, 'tools', [])).map(toolOf);
      observation = construct(ListToolsObservation, { tools, done, reward, metadata: get(obs, 'metadata', {}) });
    } else if (has(obs, 'tool_name')) {
      let error: PyDict | null = null;
      if (truthy(get(obs, 'error'))) error = construct(ToolError, kwargsOf(get(obs, 'error')));
      observation = construct(CallToolObservation, {
        tool_name: get(obs, 'tool_name', ''),
        result: get(obs, 'result'),
        error,
        done,
        reward,
        metadata: get(obs, 'metadata', {}),
      });
    } else observation = construct(Observation, { done, reward, metadata: get(obs, 'metadata', {}) });
    return { observation, reward, done };
  }

  /** mcp_client.py MCPClientBase._parse_state: State(episode_id, step_count (default 0)). */
  parseState(payload: unknown): PyDict {
    return construct(State, { episode_id: get(payload, 'episode_id'), step_count: get(payload, 'step_count', 0) });
  }

  /** mcp_client.py MCPClientBase.close: openenv/session/close for a production session (best effort), then the WebSocket. */
  override async close(): Promise<void> {
    if (this.productionSessionId !== undefined) {
      try {
        await this.productionRequest('openenv/session/close', { session_id: this.productionSessionId });
      } catch {
      } finally {
        this.productionSessionId = undefined;
      }
    }
    await super.close();
  }
}

/**
 * mcp_client.py MCPClientBase.list_tools and _parse_result: a listed tool as both build it,
 * Tool(name or "", description or "", input_schema or inputSchema or {}).
 */
function toolOf(t: unknown): PyDict {
  return construct(Tool, { name: get(t, 'name', ''), description: get(t, 'description', ''), input_schema: get(t, 'input_schema', get(t, 'inputSchema', {})) });
}

/** `ToolError(**value)`: TypeError unless a mapping. */
function kwargsOf(value: unknown): PyDict {
  if (!isDict(value))
    throw new PythonError('TypeError', `openenv.core.env_server.mcp_types.ToolError() argument after ** must be a mapping, not ${typeName(value)}`);
  return value;
}
