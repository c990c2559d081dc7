import { z } from 'zod';

/**
 * What a contact's message holds besides text and a file, kept on the message's
 * `interactive_content` so the agent reads every kind a provider delivers: a shared location, a
 * contact card, a button of the page's menu (postback), a reaction, an Instagram story mention or a reply to a
 * story, or a kind Atende cannot show (its provider type named). The words shown around them are the
 * web's, in the agent's language; the message text holds only what the contact gave (a map link, the
 * card's name and numbers, the button's title), so a preview or an API consumer reads it as well.
 */
export const MessageDetailsSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('location'),
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    name: z.string().nullable(),
    address: z.string().nullable(),
  }),
  z.object({ type: z.literal('contact'), name: z.string(), phones: z.array(z.string()), emails: z.array(z.string()) }),
  z.object({ type: z.literal('postback'), payload: z.string().nullable() }),
  /** A reaction to a message; an empty emoji takes a reaction back. */
  z.object({ type: z.literal('reaction'), emoji: z.string() }),
  z.object({ type: z.literal('story_mention') }),
  z.object({ type: z.literal('story_reply'), story_url: z.string().nullable() }),
  z.object({ type: z.literal('unsupported'), raw_type: z.string() }),
]);
export type MessageDetails = z.infer<typeof MessageDetailsSchema>;

/**
 * A file of the contact's message that was not kept: of a type the upload rules refuse (named), or
 * not downloadable from the provider. Kept beside the details as `left_out`.
 */
export const LeftOutSchema = z.object({ refused_type: z.string().nullable() });
export type LeftOut = z.infer<typeof LeftOutSchema>;

/** The details and the left-out file of a message's `interactive_content`, when it holds them. */
export function messageDetailsOf(content: unknown): { details: MessageDetails | null; leftOut: LeftOut | null } {
  const details = MessageDetailsSchema.safeParse(content);
  const leftOut = z.object({ left_out: LeftOutSchema }).safeParse(content);
  return { details: details.success ? details.data : null, leftOut: leftOut.success ? leftOut.data.left_out : null };
}

/** A map link of a point (the address every phone and browser opens). */
export const mapLink = (latitude: number, longitude: number) =>
  `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=17/${latitude}/${longitude}`;

/** The text a location message holds: its name and address when given, then the map link. */
export const locationText = (d: { latitude: number; longitude: number; name: string | null; address: string | null }) =>
  [d.name, d.address, mapLink(d.latitude, d.longitude)].filter(Boolean).join('\n');

/** The text a contact card holds: the name, then each phone number and e-mail address. */
export const contactCardText = (d: { name: string; phones: string[]; emails: string[] }) =>
  [d.name, ...d.phones, ...d.emails].filter(Boolean).join('\n');
