import { EnvClient, type StepResult } from './env-client.js';
import { get, type PyDict } from './python.js';

/**
 * OpenEnv's GenericEnvClient (src/openenv/core/generic_client.py): actions are dicts sent as they are,
 * observations and states dicts read as they come.
 */
export class GenericEnvClient extends EnvClient<PyDict, unknown, unknown> {
  /** generic_client.py GenericEnvClient._step_payload: a dict is the payload. */
  stepPayload(action: PyDict): PyDict {
    return action;
  }

  /** generic_client.py GenericEnvClient._parse_result: observation (default {}), reward (default None), done (default False). */
  parseResult(payload: unknown): StepResult<unknown> {
    return { observation: get(payload, 'observation', {}), reward: get(payload, 'reward'), done: get(payload, 'done', false) };
  }

  /** generic_client.py GenericEnvClient._parse_state: the payload as it is. */
  parseState(payload: unknown): unknown {
    return payload;
  }
}
