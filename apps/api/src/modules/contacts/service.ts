import { AppError, type Contact as ContactDto } from '@atende/contract';
import { countryForCallingCode, normalizePhone } from '@atende/core';
import { scoped, type Prisma } from '@atende/db';
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

  private db(session: Session) {
    return scoped(this.ctx.db, session);
  }

  private phone(session: Session, value: string, path: string): string {
    const normalised = normalizePhone(value, countryForCallingCode(session.tenantConfig.default_country_code));
    if (!normalised) throw new AppError('validation_failed', INVALID_PHONE, [{ path, message: INVALID_PHONE }]);
    return normalised;
  }

  private async assertPhoneFree(session: Session, phone: string, exceptId?: string) {
    const taken = await this.db(session).contact.findFirst({ where: { phoneNumber: phone, deletedAt: null, ...(exceptId ? { NOT: { id: exceptId } } : {}) }, select: { id: true } });
    if (taken) throw new AppError('conflict', 'Another contact already has this phone number', [{ path: 'phone1', message: 'Another contact already has this phone number' }]);
  }

  private data(session: Session, body: ContactFields): Prisma.ContactUncheckedUpdateInput {
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
    const db = this.db(session);
    const row = await db.contact.findFirst({ where: { id, deletedAt: null } });
    if (!row) throw new AppError('not_found', 'Contact not found');
    const [count, dnd, livechats] = await Promise.all([
      db.conversation.count({ where: { contactId: id } }),
      this.dndLists(session, [id]),
      db.channel.findMany({ where: { type: 'livechat' }, select: { config: true }, orderBy: { createdAt: 'desc' } }),
    ]);
    // Issue 16 item 8: the pre-chat answers are stored by field key; the panel shows each field's label.
    const labels: Record<string, string> = {};
    for (const channel of livechats) for (const field of appearanceOf(channel.config).custom_fields) labels[field.key] ??= field.label;
    return { ...presentContact(row, count, dnd.get(id)), livechat_field_labels: labels };
  }

  /** The DND lists of these contacts (spec 001 consult by number). */
  private async dndLists(session: Session, contactIds: string[]): Promise<Map<string, { uuid: string; name: string }[]>> {
    const rows = contactIds.length
      ? await this.ctx.db.dndContact.findMany({ where: { tenantId: session.tenantId, contactId: { in: contactIds }, list: { deletedAt: null } }, include: { list: true }, orderBy: { createdAt: 'asc' } })
      : [];
    const byContact = new Map<string, { uuid: string; name: string }[]>();
    for (const r of rows) byContact.set(r.contactId, [...(byContact.get(r.contactId) ?? []), { uuid: r.list.id, name: r.list.name }]);
    return byContact;
  }

  get(session: Session, id: string) {
    return this.present(session, id);
  }

  /** Spec 000 §5: name, phone1 and organization required; phones normalised for the tenant's country. */
  async create(session: Session, body: ContactFields & { name: string; phone1: string; organization: string }) {
    const phone = this.phone(session, body.phone1, 'phone1');
    await this.assertPhoneFree(session, phone);
    const row = await this.db(session).contact.create({
      data: { ...(this.data(session, body) as Prisma.ContactUncheckedCreateInput), name: body.name, organization: body.organization, phoneNumber: phone, tenantId: session.tenantId },
    });
    return this.present(session, row.id);
  }

  /** Spec 000 §5: phone1 is read-only once the contact exists. */
  async update(session: Session, id: string, body: ContactFields) {
    const current = await this.db(session).contact.findFirst({ where: { id, deletedAt: null } });
    if (!current) throw new AppError('not_found', 'Contact not found');
    if (body.phone1 !== undefined) {
      const same = body.phone1 === current.phoneNumber || normalizePhone(body.phone1, countryForCallingCode(session.tenantConfig.default_country_code)) === current.phoneNumber;
      if (!same) throw new AppError('validation_failed', 'Telefone 1 não pode ser editado', [{ path: 'phone1', message: 'Telefone 1 não pode ser editado' }]);
    }
    await this.db(session).contact.update({ where: { id }, data: this.data(session, body) });
    return this.present(session, id);
  }

  /** Paged list; name and phone filters of at least 3 characters (spec 000 §5), number__equals exact. */
  async list(session: Session, q: { _limit: number; _offset: number; name?: string; phone_number?: string; number__equals?: string }) {
    const digits = q.phone_number?.replace(/\D/g, '');
    const exact = q.number__equals ? normalizePhone(q.number__equals, countryForCallingCode(session.tenantConfig.default_country_code)) ?? q.number__equals : undefined;
    const where: Prisma.ContactWhereInput = {
      deletedAt: null,
      ...(q.name ? { name: { contains: q.name, mode: 'insensitive' } } : {}),
      ...(digits ? { phoneNumber: { contains: digits } } : {}),
      ...(exact ? { phoneNumber: exact } : {}),
    };
    const db = this.db(session);
    const [total, rows] = await Promise.all([
      db.contact.count({ where }),
      q._limit === 0 ? [] : db.contact.findMany({ where, orderBy: [{ name: 'asc' }, { id: 'asc' }], take: q._limit, skip: q._offset }),
    ]);
    const counts = rows.length
      ? await db.conversation.groupBy({ by: ['contactId'], where: { contactId: { in: rows.map((r) => r.id) } }, _count: { _all: true } })
      : [];
    const dnd = await this.dndLists(session, rows.map((r) => r.id));
    return {
      data: rows.map((r) => presentContact(r, counts.find((c) => c.contactId === r.id)?._count._all ?? 0, dnd.get(r.id))),
      pagination: { total, limit: q._limit, offset: q._offset },
    };
  }

  /** Soft delete; refused while a conversation of the contact is open. Their history stays. */
  async remove(session: Session, id: string) {
    const db = this.db(session);
    const current = await db.contact.findFirst({ where: { id, deletedAt: null } });
    if (!current) throw new AppError('not_found', 'Contact not found');
    const open = await db.conversation.count({ where: { contactId: id, state: { not: 'closed' } } });
    if (open > 0) throw new AppError('conflict', 'This contact has an open conversation');
    await db.contact.update({ where: { id }, data: { deletedAt: new Date() } });
    await db.contactIdentity.deleteMany({ where: { contactId: id } });
  }

  /** The contact's earlier sessions for the journey panel (spec 000 §2, §3), newest first. */
  async journey(session: Session, id: string, q: { _limit: number; _offset: number }, eventId?: string) {
    const db = this.db(session);
    const contact = await db.contact.findFirst({ where: { id }, select: { id: true } });
    if (!contact) throw new AppError('not_found', 'Contact not found');
    const where: Prisma.ConversationWhereInput = { contactId: id, ...(eventId ? { id: eventId } : {}) };
    const [total, rows] = await Promise.all([
      db.conversation.count({ where }),
      db.conversation.findMany({ where, include: { channel: true }, orderBy: { createdAt: 'desc' }, ...pageWindow(q) }),
    ]);
    const sectors = await db.sector.findMany({ where: { id: { in: rows.map((r) => r.sectorId).filter((v): v is string => v !== null) } } });
    const reasons = await db.conversationReason.findMany({ where: { id: { in: rows.map((r) => r.endReasonId).filter((v): v is string => v !== null) } } });
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

