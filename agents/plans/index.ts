import type { Plan } from '../agent.js';
import { retailPlans } from './retail.js';

// Each task's plan, by task id: one file per domain.

export const plans: Readonly<Record<string, Plan>> = { ...retailPlans };
