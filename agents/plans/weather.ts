import type { Plan } from '../agent.js';

// weather's plans, by task id (domains/weather/tasks/). Each plan uses only what the request says and what
// the tools answer; `agent.recovers` marks the documented recovery path, which only the oracle takes.

export const weatherPlans: Record<string, Plan> = {};
