import type { Contact as ContactDto } from '@atende/contract';
import type { Prisma } from '@atende/db';

type ContactRow = Prisma.ContactGetPayload<object>;

const strings = (value: unknown): Record<string, string> =>
  value && typeof value === 'object'
    ? (Object.fromEntries(Object.entries(value).filter(([, v]) => typeof v === 'string')) as Record<string, string>)
    : {};

/** Contact: phone1 is the contact's phone number; dnd_list the DND lists it is on. */
export function presentContact(c: ContactRow, conversationCount: number, dndLists: { uuid: string; name: string }[] = []): ContactDto {
  return {
    uuid: c.id,
    name: c.name,
    phone_number: c.phoneNumber,
    phone1: c.phoneNumber,
    phone2: c.phone2,
    organization: c.organization ? { name: c.organization } : null,
    gov_id: c.govId,
    email: c.email,
    customer_id: c.customerId,
    zip_code: c.zipCode,
    address_line_1: c.address1,
    address_line_2: c.address2,
    city: c.city,
    state: c.state,
    country: c.country,
    notes: c.notes,
    profile_image: c.profileImage,
    fields: strings(c.fields),
    livechat_custom_fields: strings(c.livechatCustomFields),
    dnd_list: dndLists,
    last_conversations_count: conversationCount,
    created_at: c.createdAt.toISOString(),
  };
}
