// wildtools/client: a typed HTTP client of a wildtools server.
export { type ClientOptions, WildtoolsClient } from './client.js';
export { type Problem, ProblemError, type Received, UnexpectedResponseError, WildtoolsError } from './errors.js';
export type { ArgsParameter, DomainName, DomainTools, ToolArgs, ToolName, ToolResult } from './tools.js';
export type * from './types.js';
export type { Schemas } from './schemas/index.js';
export {
  type EpisodeState,
  type OpenEnvAction,
  OpenEnvClient,
  OpenEnvError,
  type OpenEnvObservation,
  type OpenEnvOptions,
  type ResetData,
  type StepResult,
} from './openenv.js';
