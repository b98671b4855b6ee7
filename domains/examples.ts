// Values the server's documents show as request body examples (server/core/openapi.ts bodyExample): the server
// names no domain, so the ones that must name a task or a record are declared here, beside the data they fit.

/** A task of the embedded data, for the examples that start a task session, a batch or an OpenEnv episode. */
export const EXAMPLE_TASK = 'retail/001';

/** A final answer to EXAMPLE_TASK's first turn, in the shape its answer schema takes. */
export const EXAMPLE_ANSWER = { answer: { order_id: '#W5124601', refunds: [] }, text: 'Your order #W5124601 is cancelled.' };
