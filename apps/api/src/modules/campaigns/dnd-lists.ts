import {
  AppError,
  type addContactToDnd,
  type BodyOf,
  type listDndContacts,
  type listDndLists,
  type QueryOf,
  type updateDndList,
} from '@atende/contract';
import {
  addContactToDndLists,
  contactDndLists,
  countRunningCampaignsUsingDndList,
  deleteDndList,
  findLiveDndList,
  insertDndList,
  listDndContactsPage,
  listDndListsPage,
  liveContactForDnd,
  liveDndListsAmong,
  removeDndContact,
  updateDndList as saveDndList,
  type DndList,
  type DndListSummary,
} from '@atende/db';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { pageWindow } from '../../paging';

const presentList = (r: DndListSummary) => ({ uuid: r.id, name: r.name, contact_count: r.contactCount, default: r.isDefault });

/** Do-not-disturb lists of the caller's tenant and the contacts on them. */
export class DndListService {
  constructor(private readonly ctx: AppContext) {}

  private async listOf(tenantId: string, id: string): Promise<DndList> {
    const list = await findLiveDndList(this.ctx.db, tenantId, id);
    if (!list) throw new AppError('dnd_list_not_found', 'Do not disturb list not found');
    return list;
  }

  async list(session: Session, query: QueryOf<typeof listDndLists>) {
    const { rows, total } = await listDndListsPage(this.ctx.db, session.tenantId, { name: query.name }, pageWindow(query));
    return { data: rows.map(presentList), pagination: { total, limit: query._limit, offset: query._offset } };
  }

  async create(session: Session, name: string) {
    const row = await insertDndList(this.ctx.db, session.tenantId, name);
    return { uuid: row.id, name: row.name, contact_count: 0, default: row.isDefault };
  }

  async update(session: Session, id: string, body: BodyOf<typeof updateDndList>) {
    const list = await this.listOf(session.tenantId, id);
    return presentList(await saveDndList(this.ctx.db, list.id, { name: body.name, isDefault: body.default }));
  }

  async remove(session: Session, id: string): Promise<void> {
    const list = await this.listOf(session.tenantId, id);
    const running = await countRunningCampaignsUsingDndList(this.ctx.db, list.id);
    if (running) throw new AppError('dnd_list_in_use', 'A running campaign uses this list; stop it first');
    await deleteDndList(this.ctx.db, list.id);
  }

  async contacts(session: Session, id: string, query: QueryOf<typeof listDndContacts>) {
    const list = await this.listOf(session.tenantId, id);
    const digits = query.phone_number?.replace(/\D/g, '');
    const { rows, total } = await listDndContactsPage(this.ctx.db, list.id, { name: query.name, digits }, pageWindow(query));
    return {
      data: rows.map((r) => ({ uuid: r.contactId, name: r.name, phone_number: r.phoneNumber })),
      pagination: { total, limit: query._limit, offset: query._offset },
    };
  }

  async removeContact(session: Session, id: string, contactId: string): Promise<void> {
    const list = await this.listOf(session.tenantId, id);
    const removed = await removeDndContact(this.ctx.db, list.id, contactId);
    if (!removed) throw new AppError('dnd_contact_not_found', 'The contact is not on this list');
  }

  /** Puts a contact on lists; the contact with every live list it is on. */
  async addContact(session: Session, contactId: string, body: BodyOf<typeof addContactToDnd>) {
    const contact = await liveContactForDnd(this.ctx.db, session.tenantId, contactId);
    if (!contact) throw new AppError('contact_not_found', 'Contact not found');
    const lists = await liveDndListsAmong(this.ctx.db, session.tenantId, body.dnd_list);
    if (lists.length !== new Set(body.dnd_list).size)
      throw new AppError('dnd_list_unknown', 'Do not disturb list not found', [
        { path: 'dnd_list', message: 'Do not disturb list not found' },
      ]);
    await addContactToDndLists(
      this.ctx.db,
      session.tenantId,
      contact.id,
      lists.map((l) => l.id),
    );
    const all = await contactDndLists(this.ctx.db, contact.id);
    return { uuid: contact.id, name: contact.name, dnd_list: all.map((d) => ({ uuid: d.id, name: d.name })) };
  }
}
