import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { DeskError, HelpDesk } from './desk.js';

// A small help-desk MCP server, as a user's own would be: four tools over the desk's records.

const contactShape = { id: z.string(), name: z.string(), email: z.string(), company: z.string(), phone: z.string().nullable() };
const ticketShape = { id: z.string(), contact_id: z.string(), subject: z.string(), body: z.string(), status: z.enum(['open', 'closed']) };
const contactId = z.string().describe('A contact id such as c_001 (lookup_contact finds it).');

const READ = { readOnlyHint: true, openWorldHint: false } as const;

/** The answer as text and as structured content; a refusal of the desk as a tool error with its message. */
function answer(run: () => object): CallToolResult {
  try {
    const result = run() as Record<string, unknown>;
    return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
  } catch (error) {
    if (error instanceof DeskError) return { isError: true, content: [{ type: 'text', text: error.message }] };
    throw error;
  }
}

/** One MCP server over a desk (a fresh one by default); sessions of one HTTP server share its desk. */
export function buildMcpServer(desk: HelpDesk = new HelpDesk()): McpServer {
  const server = new McpServer({ name: 'helpdesk', version: '1.0.0' });

  server.registerTool(
    'lookup_contact',
    {
      description: 'Find a contact by email address (exact, case-insensitive).',
      inputSchema: { email: z.string().describe("The contact's email address.") },
      outputSchema: contactShape,
      annotations: READ,
    },
    ({ email }) => answer(() => desk.lookupContact(email)),
  );

  server.registerTool(
    'create_ticket',
    {
      description: 'Open a support ticket for a contact. Returns the ticket, with its new id.',
      inputSchema: { contact_id: contactId, subject: z.string().min(1).max(200), body: z.string().min(1).max(5000) },
      outputSchema: ticketShape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ contact_id, subject, body }) => answer(() => desk.createTicket(contact_id, subject, body)),
  );

  server.registerTool(
    'list_tickets',
    {
      description: "A contact's tickets, a page at a time: pass next_cursor as cursor for the next page (null after the last).",
      inputSchema: { contact_id: contactId, cursor: z.string().optional().describe('The next_cursor of the previous page.') },
      outputSchema: { items: z.array(z.object(ticketShape)), next_cursor: z.string().nullable() },
      annotations: READ,
    },
    ({ contact_id, cursor }) => answer(() => desk.listTickets(contact_id, cursor)),
  );

  server.registerTool(
    'get_ticket',
    {
      description: 'Read one ticket by id (t_001, …).',
      inputSchema: { id: z.string() },
      outputSchema: ticketShape,
      annotations: READ,
    },
    ({ id }) => answer(() => desk.getTicket(id)),
  );

  return server;
}
