import {
  AppError,
  createContact,
  deleteContact,
  getContact,
  getContactJourney,
  getContactJourneyEvent,
  listContacts,
  updateContact,
} from '@atende/contract';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import { ContactService } from './service';

export function contactRoutes(app: FastifyInstance, ctx: AppContext): void {
  const contacts = new ContactService(ctx);
  bind(app, listContacts, 'contacts.read', async ({ session, query }) => contacts.list(session, query));
  bind(app, createContact, 'contacts.create', async ({ session, body }) => ({ data: await contacts.create(session, body) }));
  bind(app, getContact, 'contacts.read', async ({ session, params }) => ({ data: await contacts.get(session, params.id) }));
  bind(app, updateContact, 'contacts.update', async ({ session, params, body }) => ({
    data: await contacts.update(session, params.id, body),
  }));
  bind(app, deleteContact, 'contacts.delete', async ({ session, params }) => {
    await contacts.remove(session, params.id);
    return { data: { ok: true as const } };
  });
  bind(app, getContactJourney, 'contacts.read', async ({ session, params, query }) => contacts.journey(session, params.id, query));
  bind(app, getContactJourneyEvent, 'contacts.read', async ({ session, params }) => {
    const page = await contacts.journey(session, params.id, { _limit: 1, _offset: 0 }, params.eventId);
    const entry = page.data[0];
    if (!entry) throw new AppError('journey_entry_not_found', 'Journey entry not found');
    return { data: entry };
  });
}
