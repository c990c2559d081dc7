import { AppError, type Contact as ContactDto } from '@atende/contract';
import { countryForCallingCode, normalizePhone } from '@atende/core';
import {
  contactConversationPage,
  contactExists,
  contactPhoneTaken,
  conversationCountsOfContacts,
  countOpenConversationsOfContact,
  dndListsOfContacts,
  findLiveContact,
  insertContact,
  listContactPage,
  livechatChannelConfigs,
  sectorAndReasonNames,
  softDeleteContact,
  updateContactFields,
  type ContactChanges,
} from '@atende/db';
import { appearanceOf } from '../channels/service';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { presentContact } from './present';
import { pageWindow } from '../../paging';

const INVALID_PHONE = 'Número de telefone inválido';

type ContactFields = {
  name?: string;
  organization?: string;
  phone1?: string;
  phone2?: string | null;
  gov_id?: string | null;
  email?: string | null;
  customer_id?: number | null;
  zip_code?: string | null;
  address_line_1?: string | null;
  address_line_2?: string | null;
  city?: string | null;
  state?: string | null;
  country?: string | null;
  notes?: string | null;
  fields?: Record<string, string>;
  livechat_custom_fields?: Record<string, string>;
};

export class ContactService {
  constructor(private readonly ctx: AppContext) {}

  private phone(session: Session, value: string, path: string): string {
    const normalised = normalizePhone(value, countryForCallingCode(session.tenantConfig.default_country_code));
    if (!normalised) throw new AppError('phone_invalid', INVALID_PHONE, [{ path, message: INVALID_PHONE }]);
    return normalised;
  }

  private async assertPhoneFree(session: Session, phone: string, exceptId?: string) {
    const taken = await contactPhoneTaken(this.ctx.db, session.tenantId, phone, exceptId);
    if (taken)
      throw new AppError('contact_phone_taken', 'Another contact already has this phone number', [
        { path: 'phone1', message: 'Another contact already has this phone number' },
      ]);
  }

  private data(session: Session, body: ContactFields): ContactChanges {
    const text = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim());
    return {
      name: body.name,
      organization: body.organization,
      phone2: body.phone2 === undefined ? undefined : body.phone2 ? this.phone(session, body.phone2, 'phone2') : null,
      govId: text(body.gov_id),
      email: body.email === undefined ? undefined : body.email ? body.email.toLowerCase() : null,
      customerId: body.customer_id,
      zipCode: text(body.zip_code),
      address1: text(body.address_line_1),
      address2: text(body.address_line_2),
      city: text(body.city),
      state: text(body.state),
      country: text(body.country),
      notes: text(body.notes),
      fields: body.fields,
      livechatCustomFields: body.livechat_custom_fields,
    };
  }

  private async present(session: Session, id: string): Promise<ContactDto> {
    const row = await findLiveContact(this.ctx.db, session.tenantId, id);
    if (!row) throw new AppError('contact_not_found', 'Contact not found');
    const [counts, dnd, livechats] = await Promise.all([
      conversationCountsOfContacts(this.ctx.db, session.tenantId, [id]),
      this.dndLists(session, [id]),
      livechatChannelConfigs(this.ctx.db, session.tenantId),
    ]);
    const count = counts.get(id) ?? 0;
    // The pre-chat answers are stored by field key; the panel shows each field's label.
    const labels: Record<string, string> = {};
    for (const channel of livechats) for (const field of appearanceOf(channel.config).custom_fields) labels[field.key] ??= field.label;
    return { ...presentContact(row, count, dnd.get(id)), livechat_field_labels: labels };
  }

  /** The DND lists of these contacts (consult by number). */
  private async dndLists(session: Session, contactIds: string[]): Promise<Map<string, { uuid: string; name: string }[]>> {
    const rows = await dndListsOfContacts(this.ctx.db, session.tenantId, contactIds);
    const byContact = new Map<string, { uuid: string; name: string }[]>();
    for (const r of rows) byContact.set(r.contactId, [...(byContact.get(r.contactId) ?? []), { uuid: r.list.id, name: r.list.name }]);
    return byContact;
  }

  get(session: Session, id: string) {
    return this.present(session, id);
  }

  /** Name, phone1 and organization required; phones normalised for the tenant's country. */
  async create(session: Session, body: ContactFields & { name: string; phone1: string; organization: string }) {
    const phone = this.phone(session, body.phone1, 'phone1');
    await this.assertPhoneFree(session, phone);
    const row = await insertContact(this.ctx.db, session.tenantId, {
      ...this.data(session, body),
      name: body.name,
      organization: body.organization,
      phoneNumber: phone,
    });
    return this.present(session, row.id);
  }

  /** Phone1 is read-only once the contact exists. */
  async update(session: Session, id: string, body: ContactFields) {
    const current = await findLiveContact(this.ctx.db, session.tenantId, id);
    if (!current) throw new AppError('contact_not_found', 'Contact not found');
    if (body.phone1 !== undefined) {
      const same =
        body.phone1 === current.phoneNumber ||
        normalizePhone(body.phone1, countryForCallingCode(session.tenantConfig.default_country_code)) === current.phoneNumber;
      if (!same)
        throw new AppError('phone_1_locked', 'Telefone 1 não pode ser editado', [
          { path: 'phone1', message: 'Telefone 1 não pode ser editado' },
        ]);
    }
    await updateContactFields(this.ctx.db, session.tenantId, id, this.data(session, body));
    return this.present(session, id);
  }

  /** Paged list; name and phone filters of at least 3 characters, number__equals exact. */
  async list(session: Session, q: { _limit: number; _offset: number; name?: string; phone_number?: string; number__equals?: string }) {
    const digits = q.phone_number?.replace(/\D/g, '');
    const exact = q.number__equals
      ? (normalizePhone(q.number__equals, countryForCallingCode(session.tenantConfig.default_country_code)) ?? q.number__equals)
      : undefined;
    const { rows, total } = await listContactPage(
      this.ctx.db,
      session.tenantId,
      { nameContains: q.name, phoneContains: digits, phoneEquals: exact },
      { take: q._limit, skip: q._offset },
    );
    const counts = await conversationCountsOfContacts(
      this.ctx.db,
      session.tenantId,
      rows.map((r) => r.id),
    );
    const dnd = await this.dndLists(
      session,
      rows.map((r) => r.id),
    );
    return {
      data: rows.map((r) => presentContact(r, counts.get(r.id) ?? 0, dnd.get(r.id))),
      pagination: { total, limit: q._limit, offset: q._offset },
    };
  }

  /** Soft delete; refused while a conversation of the contact is open. Their history stays. */
  async remove(session: Session, id: string) {
    const current = await findLiveContact(this.ctx.db, session.tenantId, id);
    if (!current) throw new AppError('contact_not_found', 'Contact not found');
    const open = await countOpenConversationsOfContact(this.ctx.db, session.tenantId, id);
    if (open > 0) throw new AppError('contact_conversation_open', 'This contact has an open conversation');
    await softDeleteContact(this.ctx.db, session.tenantId, id);
  }

  /** The contact's earlier sessions for the journey panel, newest first. */
  async journey(session: Session, id: string, q: { _limit: number; _offset: number }, eventId?: string) {
    if (!(await contactExists(this.ctx.db, session.tenantId, id))) throw new AppError('contact_not_found', 'Contact not found');
    const { rows, total } = await contactConversationPage(this.ctx.db, session.tenantId, id, eventId, pageWindow(q));
    const { sectors, reasons } = await sectorAndReasonNames(
      this.ctx.db,
      session.tenantId,
      rows.map((r) => r.sectorId).filter((v): v is string => v !== null),
      rows.map((r) => r.endReasonId).filter((v): v is string => v !== null),
    );
    const data = rows.map((r) => ({
      uuid: r.id,
      event_type: 'chat' as const,
      start: r.createdAt.toISOString(),
      end: r.closedAt?.toISOString() ?? null,
      data: {
        conversation_uuid: r.id,
        channel_type: r.channel.type,
        channel_name: r.channel.name,
        recording_link: null,
        queue_name: sectors.find((s) => s.id === r.sectorId)?.name ?? null,
        outcome: reasons.find((x) => x.id === r.endReasonId)?.name ?? r.endedBy,
        __event_type__: 'chat' as const,
      },
    }));
    return { data, pagination: { total, limit: q._limit, offset: q._offset } };
  }
}
