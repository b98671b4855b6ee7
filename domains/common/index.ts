import calculate from './tools/calculate.js';
import transferToHumanAgents from './tools/transfer_to_human_agents.js';

/** Utilities that the customer-service domains (retail, airline) list beside their own tools. */
export const commonTools = [calculate, transferToHumanAgents] as const;
