import type { Plan } from '../agent.js';
import { airlinePlans } from './airline.js';
import { retailPlans } from './retail.js';
import { smartHomePlans } from './smart-home.js';
import { weatherPlans } from './weather.js';

// Each task's plan, by task id: one file per domain.

export const plans: Readonly<Record<string, Plan>> = { ...retailPlans, ...airlinePlans, ...smartHomePlans, ...weatherPlans };
