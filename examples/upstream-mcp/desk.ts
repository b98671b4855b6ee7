import { decodeCursor, type Page, page } from '../shared/page.js';
import { type Contact, defaultData, recordId } from '../upstream-crm/data.js';

// The help desk's records: the CRM example's contacts (one company, two services) and their tickets, in memory.

export type TicketStatus = 'open' | 'closed';

export interface Ticket {
  id: string;
  contact_id: string;
  subject: string;
  body: string;
  status: TicketStatus;
}

/** A refusal the caller can act on; the MCP server hands its message back as a tool error. */
export class DeskError extends Error {}

export const TICKET_COUNT = 24;
/** Tickets per page of list_tickets. */
export const TICKETS_PER_PAGE = 3;

const SUBJECTS = ['Invoice shows the wrong amount', 'Cannot reset my password', 'Delivery is late', 'Export to CSV fails', 'Add a second user'];

/** Tickets 1–24 go in turn to c_001, c_003, …, c_011: four each. */
function ticket(n: number): Ticket {
  const subject = SUBJECTS[(n - 1) % SUBJECTS.length]!;
  return {
    id: recordId('t', n),
    contact_id: recordId('c', ((n - 1) % 6) * 2 + 1),
    subject,
    body: `${subject}. Reported in ticket ${n}; please look into it.`,
    status: n % 3 === 0 ? 'closed' : 'open',
  };
}

export class HelpDesk {
  readonly #contacts: Contact[];
  readonly #tickets: Ticket[];

  constructor(contacts: readonly Contact[] = defaultData().contacts) {
    this.#contacts = structuredClone([...contacts]);
    this.#tickets = Array.from({ length: TICKET_COUNT }, (_, i) => ticket(i + 1));
  }

  lookupContact(email: string): Contact {
    const contact = this.#contacts.find((candidate) => candidate.email.toLowerCase() === email.trim().toLowerCase());
    if (!contact) throw new DeskError(`No contact has the email '${email}'. Check the address, or ask the user for the one they signed up with.`);
    return contact;
  }

  createTicket(contactId: string, subject: string, body: string): Ticket {
    this.#contact(contactId);
    const created: Ticket = { id: recordId('t', this.#tickets.length + 1), contact_id: contactId, subject, body, status: 'open' };
    this.#tickets.push(created);
    return created;
  }

  listTickets(contactId: string, cursor?: string): Page<Ticket> {
    this.#contact(contactId);
    const after = cursor === undefined ? undefined : decodeCursor(cursor);
    if (cursor !== undefined && after === undefined)
      throw new DeskError(`'${cursor}' is not a cursor list_tickets handed out: leave it out to start from the first page.`);
    return page(
      this.#tickets.filter((candidate) => candidate.contact_id === contactId),
      TICKETS_PER_PAGE,
      after,
    );
  }

  getTicket(id: string): Ticket {
    const found = this.#tickets.find((candidate) => candidate.id === id);
    if (!found) throw new DeskError(`No ticket with id '${id}'.`);
    return found;
  }

  #contact(id: string): Contact {
    const contact = this.#contacts.find((candidate) => candidate.id === id);
    if (!contact) throw new DeskError(`No contact with id '${id}'. Find the id with lookup_contact.`);
    return contact;
  }
}
