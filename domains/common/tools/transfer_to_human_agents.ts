import { z } from 'zod';
import { defineTool } from '../../tool.js';

export default defineTool({
  name: 'transfer_to_human_agents',
  description:
    'Hand the customer over to a human agent, with a summary of their issue. Transfer only when the customer asks ' +
    'for a human, or when the policy and the tools available cannot resolve the issue.',
  input: z.strictObject({ summary: z.string().describe("A summary of the customer's issue and what was tried.") }),
  output: z.string(),
  errors: [],
  mutates: false,
  example: { summary: 'The customer asks for a human agent.' },
  run: () => 'Transfer successful',
});
