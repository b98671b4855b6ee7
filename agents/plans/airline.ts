import type { Plan } from '../agent.js';

// airline's plans, by task id (domains/airline/tasks/). Each plan uses only what the request says and what
// the tools answer; `agent.recovers` marks the documented recovery path, which only the oracle takes.

export const airlinePlans: Record<string, Plan> = {};
