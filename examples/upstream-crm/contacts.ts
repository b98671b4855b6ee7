import type { FastifyInstance } from 'fastify';
import { parse } from './problem.js';
import { ContactInput, ContactPatch, ContactQuery, LIST_CACHE } from './schemas.js';
import type { CrmStore } from './store.js';

// /contacts: a page of contacts, one contact, and the writes.

type ById = { Params: { id: string } };

export async function contactRoutes(app: FastifyInstance, { store }: { store: CrmStore }): Promise<void> {
  app.get('/contacts', async (request, reply) => {
    const contacts = store.listContacts(parse(ContactQuery, request.query, 'query'));
    return reply.header('cache-control', LIST_CACHE).send(contacts);
  });

  app.get<ById>('/contacts/:id', async (request) => store.getContact(request.params.id));

  app.post('/contacts', async (request, reply) => {
    const contact = store.createContact(parse(ContactInput, request.body, 'body'));
    return reply.code(201).header('location', `/contacts/${contact.id}`).send(contact);
  });

  app.patch<ById>('/contacts/:id', async (request) => store.updateContact(request.params.id, parse(ContactPatch, request.body, 'body')));

  app.delete<ById>('/contacts/:id', async (request, reply) => {
    store.deleteContact(request.params.id);
    return reply.code(204).send();
  });
}
