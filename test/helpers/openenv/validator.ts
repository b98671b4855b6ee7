// OpenEnv's runtime validator (src/openenv/cli/_validation.py, validate_running_environment): six criteria
// against a running server, each with its id, whether it passed, and what was expected and found; the
// report passes when every required criterion does.

export interface Criterion {
  id: string;
  description: string;
  passed: boolean;
  required: boolean;
  details?: string;
  expected?: unknown;
  actual?: unknown;
}

export interface ValidationReport {
  target: string;
  validation_type: 'running_environment';
  standard_version: string;
  standard_profile: string;
  mode: 'unknown' | 'simulation' | 'production';
  passed: boolean;
  summary: { passed_count: number; total_count: number; failed_criteria: string[]; required_passed_count: number; required_total_count: number };
  criteria: Criterion[];
}

/** _validation.py _make_criterion. */
function criterion(id: string, description: string, passed: boolean, extra: Pick<Criterion, 'details' | 'expected' | 'actual'> = {}): Criterion {
  return { id, description, passed, required: true, ...extra };
}

/** _validation.py _normalize_runtime_url: http:// when no scheme, no trailing slash. */
export function normalizeRuntimeUrl(baseUrl: string): string {
  let target = baseUrl.trim();
  if (!target) throw new Error('Runtime URL cannot be empty');
  if (!target.includes('://')) target = `http://${target}`;
  return target.replace(/\/+$/, '');
}

const isDict = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

interface Answer {
  status: number;
  /** The parsed body; undefined when it is not JSON. */
  json: unknown;
}

/** requests.get/post then .json(): a failed request is thrown as the validator's "Request failed" detail. */
async function request(url: string, timeoutMs: number, body?: unknown): Promise<Answer> {
  const response = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json };
}

const failedRequest = (error: unknown) => `Request failed: ${(error as Error).name}: ${(error as Error).message}`;

/** _validation.py validate_running_environment(base_url, timeout_s): the six criteria in OpenEnv's order. */
export async function validateRunningEnvironment(baseUrl: string, timeoutMs = 5_000): Promise<ValidationReport> {
  const target = normalizeRuntimeUrl(baseUrl);
  const criteria: Criterion[] = [];
  let paths: unknown = {};
  let version = 'unknown';

  const openapiExpected = { status_code: 200, 'info.version': 'string' };
  const openapiDescription = 'GET /openapi.json returns OpenAPI info.version';
  try {
    const { status, json } = await request(`${target}/openapi.json`, timeoutMs);
    const info = isDict(json) ? json['info'] : undefined;
    if (status === 200 && isDict(info) && typeof info['version'] === 'string') {
      version = info['version'];
      paths = (json as Record<string, unknown>)['paths'] ?? {};
      criteria.push(
        criterion('openapi_version_available', openapiDescription, true, {
          expected: openapiExpected,
          actual: { status_code: status, 'info.version': version },
        }),
      );
    } else
      criteria.push(
        criterion('openapi_version_available', openapiDescription, false, {
          details: 'Response missing required OpenAPI info.version field',
          expected: openapiExpected,
          actual: {
            status_code: status,
            body_type: json === undefined ? 'non_json' : Array.isArray(json) ? 'list' : typeof json === 'object' ? 'dict' : typeof json,
          },
        }),
      );
  } catch (error) {
    criteria.push(criterion('openapi_version_available', openapiDescription, false, { details: failedRequest(error), expected: openapiExpected }));
  }

  const healthExpected = { status_code: 200, status: 'healthy' };
  const healthDescription = 'GET /health returns healthy status';
  try {
    const { status, json } = await request(`${target}/health`, timeoutMs);
    const reported = isDict(json) ? (json['status'] ?? null) : null;
    criteria.push(
      criterion('health_endpoint', healthDescription, status === 200 && reported === 'healthy', {
        expected: healthExpected,
        actual: { status_code: status, status: reported },
      }),
    );
  } catch (error) {
    criteria.push(criterion('health_endpoint', healthDescription, false, { details: failedRequest(error), expected: healthExpected }));
  }

  const metadataExpected = { status_code: 200, fields: ['name', 'description'] };
  const metadataDescription = 'GET /metadata returns name and description';
  try {
    const { status, json } = await request(`${target}/metadata`, timeoutMs);
    const name = isDict(json) ? (json['name'] ?? null) : null;
    const description = isDict(json) ? (json['description'] ?? null) : null;
    criteria.push(
      criterion('metadata_endpoint', metadataDescription, status === 200 && typeof name === 'string' && typeof description === 'string', {
        expected: metadataExpected,
        actual: { status_code: status, name, description },
      }),
    );
  } catch (error) {
    criteria.push(criterion('metadata_endpoint', metadataDescription, false, { details: failedRequest(error), expected: metadataExpected }));
  }

  const schemaExpected = { status_code: 200, fields: ['action', 'observation', 'state'] };
  const schemaDescription = 'GET /schema returns action, observation, and state schemas';
  try {
    const { status, json } = await request(`${target}/schema`, timeoutMs);
    const has = (part: string) => isDict(json) && isDict(json[part]);
    criteria.push(
      criterion('schema_endpoint', schemaDescription, status === 200 && has('action') && has('observation') && has('state'), {
        expected: schemaExpected,
        actual: { status_code: status, has_action: has('action'), has_observation: has('observation'), has_state: has('state') },
      }),
    );
  } catch (error) {
    criteria.push(criterion('schema_endpoint', schemaDescription, false, { details: failedRequest(error), expected: schemaExpected }));
  }

  const mcpExpected = { status_code: 200, jsonrpc: '2.0' };
  const mcpDescription = 'POST /mcp is reachable and returns JSON-RPC payload';
  try {
    const { status, json } = await request(`${target}/mcp`, timeoutMs, {});
    const jsonrpc = isDict(json) ? (json['jsonrpc'] ?? null) : null;
    criteria.push(
      criterion('mcp_endpoint', mcpDescription, status === 200 && jsonrpc === '2.0', { expected: mcpExpected, actual: { status_code: status, jsonrpc } }),
    );
  } catch (error) {
    criteria.push(criterion('mcp_endpoint', mcpDescription, false, { details: failedRequest(error), expected: mcpExpected }));
  }

  let mode: ValidationReport['mode'] = 'unknown';
  const modeDescription = 'OpenAPI endpoint set matches OpenEnv mode contract';
  if (isDict(paths) && Object.keys(paths).length > 0) {
    const actual = { '/reset': '/reset' in paths, '/step': '/step' in paths, '/state': '/state' in paths };
    mode = actual['/reset'] ? 'simulation' : 'production';
    const passed = actual['/reset'] ? actual['/step'] && actual['/state'] : !actual['/step'] && !actual['/state'];
    const expected = actual['/reset'] ? { '/reset': true, '/step': true, '/state': true } : { '/reset': false, '/step': false, '/state': false };
    criteria.push(criterion('mode_endpoint_consistency', modeDescription, passed, { expected, actual }));
  } else
    criteria.push(
      criterion('mode_endpoint_consistency', modeDescription, false, {
        details: 'Cannot determine mode without OpenAPI paths',
        expected: { 'openapi.paths': 'present' },
        actual: { 'openapi.paths': 'missing' },
      }),
    );

  const failed = criteria.filter((c) => !c.passed).map((c) => c.id);
  const required = criteria.filter((c) => c.required);
  return {
    target,
    validation_type: 'running_environment',
    standard_version: version,
    standard_profile: version.startsWith('1.') ? 'openenv-http/1.x' : 'openenv-http/unknown',
    mode,
    passed: required.every((c) => c.passed),
    summary: {
      passed_count: criteria.length - failed.length,
      total_count: criteria.length,
      failed_criteria: failed,
      required_passed_count: required.filter((c) => c.passed).length,
      required_total_count: required.length,
    },
    criteria,
  };
}
