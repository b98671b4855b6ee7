import { decodeCursor, type Page, page } from '../shared/page.js';
import type { Contact, CrmData, Deal, DealStage } from './data.js';
import { recordId } from './data.js';
import { HttpProblem, notFound } from './problem.js';

// The CRM's in-memory records and what its routes do with them. Records stay in id order.

export type ContactInput = Omit<Contact, 'id' | 'phone'> & { phone?: string | null | undefined };
export type ContactPatch = Partial<ContactInput>;

export interface ContactQuery {
  limit: number;
  cursor?: string | undefined;
  /** Matched, case-insensitively, against name, email and company. */
  q?: string | undefined;
}

const ordinalOf = (id: string): number => Number(id.split('_')[1]);

export class CrmStore {
  readonly #contacts: Map<string, Contact>;
  readonly #deals: Map<string, Deal>;
  #lastContact: number;

  constructor(data: CrmData) {
    this.#contacts = new Map(structuredClone(data.contacts).map((contact) => [contact.id, contact]));
    this.#deals = new Map(structuredClone(data.deals).map((deal) => [deal.id, deal]));
    this.#lastContact = Math.max(0, ...data.contacts.map((contact) => ordinalOf(contact.id)));
  }

  listContacts({ limit, cursor, q }: ContactQuery): Page<Contact> {
    const after = cursor === undefined ? undefined : decodeCursor(cursor);
    if (cursor !== undefined && after === undefined)
      throw new HttpProblem(400, 'invalid-input', `Invalid query: cursor: '${cursor}' is not a cursor this API handed out.`, [
        { field: 'cursor', message: 'Not a cursor this API handed out.' },
      ]);
    const needle = q?.toLowerCase();
    const matching = [...this.#contacts.values()].filter(
      (contact) => needle === undefined || [contact.name, contact.email, contact.company].some((text) => text.toLowerCase().includes(needle)),
    );
    return page(matching, limit, after);
  }

  getContact(id: string): Contact {
    const contact = this.#contacts.get(id);
    if (!contact) throw notFound('contact', id);
    return contact;
  }

  createContact(input: ContactInput): Contact {
    this.#assertEmailFree(input.email);
    this.#lastContact += 1;
    const contact: Contact = { id: recordId('c', this.#lastContact), ...input, phone: input.phone ?? null };
    this.#contacts.set(contact.id, contact);
    return contact;
  }

  updateContact(id: string, patch: ContactPatch): Contact {
    const contact = this.getContact(id);
    if (patch.email !== undefined && patch.email !== contact.email) this.#assertEmailFree(patch.email);
    const updated: Contact = { ...contact, ...patch, phone: patch.phone === undefined ? contact.phone : patch.phone };
    this.#contacts.set(id, updated);
    return updated;
  }

  deleteContact(id: string): void {
    this.getContact(id);
    this.#contacts.delete(id);
  }

  /** Every deal, or a contact's (none for a contact that has none or does not exist). */
  listDeals(contactId?: string): Deal[] {
    return [...this.#deals.values()].filter((deal) => contactId === undefined || deal.contact_id === contactId);
  }

  closeDeal(id: string, outcome: Exclude<DealStage, 'open'>): Deal {
    const deal = this.#deals.get(id);
    if (!deal) throw notFound('deal', id);
    if (deal.stage !== 'open') throw new HttpProblem(409, 'deal-closed', `Deal '${id}' is already closed (${deal.stage}).`);
    const closed: Deal = { ...deal, stage: outcome };
    this.#deals.set(id, closed);
    return closed;
  }

  #assertEmailFree(email: string): void {
    const owner = [...this.#contacts.values()].find((contact) => contact.email.toLowerCase() === email.toLowerCase());
    if (owner)
      throw new HttpProblem(409, 'email-taken', `Contact '${owner.id}' already has the email '${email}'.`, [
        { field: 'email', message: `Already used by contact '${owner.id}'.` },
      ]);
  }
}
