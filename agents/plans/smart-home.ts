import type { Plan } from '../agent.js';

// smart-home's plans, by task id (domains/smart-home/tasks/). Each plan uses only what the request says and what
// the tools answer; `agent.recovers` marks the documented recovery path, which only the oracle takes.

export const smartHomePlans: Record<string, Plan> = {};
