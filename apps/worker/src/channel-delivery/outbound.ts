import {
  channelDefinition,
  decryptCredentials,
  ChannelDeliveryError,
  signedFileUrl,
  type ChannelTarget,
  type OutboundMessage,
} from '@atende/channels';
import { capabilitiesOf, emailHeadersOf, threadSubjectOf } from '@atende/contract';
import {
  annexFile,
  contactIdentifierOn,
  earlierProviderMessages,
  lastContactMessageOn,
  providerMessageById,
  type ScopedDb,
} from '@atende/db';
import type { StorageDriver } from '@atende/storage';
import { z } from 'zod';

/** Message.templateMessage as the api stores it. */
const StoredTemplateSchema = z.object({
  name: z.string(),
  language: z.string(),
  body: z.array(z.string()).default([]),
  header: z
    .object({ format: z.enum(['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT']), value: z.string() })
    .nullable()
    .default(null),
  url_buttons: z.array(z.object({ index: z.number().int(), text: z.string() })).default([]),
});

function templateOf(stored: unknown): OutboundMessage['template'] {
  const parsed = StoredTemplateSchema.safeParse(stored);
  if (!parsed.success) return null;
  const t = parsed.data;
  return { name: t.name, language: t.language, body: t.body, header: t.header, urlButtons: t.url_buttons };
}

/** The message row with what delivery needs, as loaded by the processor. */
export interface LoadedMessage {
  id: string;
  content: string;
  author: 'USER' | 'CONTACT' | 'SYSTEM';
  annexId: string | null;
  createdAt: Date;
  /** Recorded in the composer as a voice note. */
  voice?: boolean;
  /** Set when the message is a template (outbound start, campaigns): {name, language, body, header, url_buttons}. */
  templateMessage: unknown;
  /** Provider details; a new outbound e-mail's subject. */
  interactiveContent?: unknown;
  /** The message this one answers (the composer's reply): an e-mail reply joins that mail's thread. */
  replyToId?: string | null;
  conversation: {
    id: string;
    contactId: string;
    channelId: string;
    contact: { id: string; phoneNumber: string | null };
    channel: { id: string; type: string; enabled: boolean; deletedAt: Date | null; config: unknown; credentialsEncrypted: string | null };
  };
}

/** How annex links are made: the api's public address, and the secret and lifetime of their signature. */
export interface AnnexLinks {
  publicUrl: string;
  /** FILE_LINK_SECRET, the same value the api verifies with. */
  secret: string;
  ttlSeconds?: number;
  /** The storage driver of a StoredFile's service: annex bytes for providers that take uploads (Telegram). */
  storage?: (service: string) => StorageDriver | null;
}

/** The bytes of a stored file, read when the adapter asks (only providers that upload do). */
function readerOf(
  storage: AnnexLinks['storage'],
  file: { service: string; storageKey: string; id: string },
): (() => Promise<Buffer>) | undefined {
  const driver = storage?.(file.service);
  if (!driver) return undefined;
  return async () => {
    const stored = await driver.get(file.storageKey);
    if (!stored) throw new ChannelDeliveryError('permanent', `The attachment's file is missing from storage (${file.id})`);
    const chunks: Buffer[] = [];
    for await (const chunk of stored.stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
    return Buffer.concat(chunks);
  };
}

/**
 * Address of a stored file for the receiving system (annex.url): a signed, time-limited link the
 * api serves without a session, since a webhook receiver has none.
 */
export const annexUrl = (links: AnnexLinks, fileId: string, now = Date.now()) =>
  signedFileUrl({ publicUrl: links.publicUrl, secret: links.secret, fileId, ttlSeconds: links.ttlSeconds, now });

/**
 * E-mail threading: the Message-IDs of the conversation's earlier e-mails, ours
 * and the contact's, oldest first (an attachment's extra `#n` messages share their mail's id), and
 * the subject of the latest mail that had one. A reply therefore joins the contact's thread; a reply
 * to one mail in particular joins that mail's thread.
 */
async function emailThreadOf(db: ScopedDb, message: LoadedMessage): Promise<NonNullable<OutboundMessage['thread']>> {
  const earlier = await earlierProviderMessages(
    db,
    { id: message.id, conversationId: message.conversation.id, createdAt: message.createdAt },
    40,
  );
  const oldestFirst = earlier.reverse();
  const references: string[] = [];
  for (const row of oldestFirst) {
    const id = row.externalId?.replace(/#\d+$/, '') ?? '';
    if (/^<[^<>\s]+>$/.test(id) && !references.includes(id)) references.push(id);
  }
  // A message with a subject of its own (a new outbound e-mail, or the agent starting a new thread)
  // is sent as it is: a new thread, answering no earlier mail.
  const own = emailHeadersOf(message.interactiveContent)?.subject;
  if (own) return { subject: own, references: [], fresh: true };
  // The agent answered one mail of the conversation (reply to it): the reply joins that mail's own
  // thread and subject, not the latest mail's, when the conversation holds several threads.
  const answered = message.replyToId ? await providerMessageById(db, message.replyToId) : null;
  const answeredId = answered?.conversationId === message.conversation.id ? answered.externalId?.replace(/#\d+$/, '') : null;
  const answeredMail = answered && answeredId && /^<[^<>\s]+>$/.test(answeredId) ? answered : null;
  // The subject follows the same rule as the composer shows it (contract threadSubjectOf).
  const subject = threadSubjectOf(
    oldestFirst.map((row) => row.interactiveContent),
    answeredMail?.interactiveContent,
  );
  if (answeredMail && answeredId) {
    const thread = emailHeadersOf(answeredMail.interactiveContent)?.references ?? [];
    return { subject, references: [...thread.filter((r) => r !== answeredId), answeredId] };
  }
  return { subject, references };
}

export async function outboundMessageOf(db: ScopedDb, message: LoadedMessage, links: AnnexLinks): Promise<OutboundMessage> {
  const { conversation } = message;
  // Channels with a reply window (Meta's 24 hours) need when the contact last wrote on this channel.
  const windowed = capabilitiesOf(conversation.channel.type)?.replyWindowHours !== undefined;
  const [file, identity, lastContactMessage, thread] = await Promise.all([
    message.annexId ? annexFile(db, message.annexId) : null,
    contactIdentifierOn(db, conversation.channelId, conversation.contactId),
    windowed ? lastContactMessageOn(db, conversation.channelId, conversation.contactId) : null,
    channelDefinition(conversation.channel.type)?.emailThreads ? emailThreadOf(db, message) : null,
  ]);
  return {
    uuid: message.id,
    conversationUuid: conversation.id,
    content: message.content,
    annex: file
      ? {
          url: annexUrl(links, file.id),
          contentType: file.contentType,
          originalFilename: file.originalFilename,
          size: file.size,
          ...(readerOf(links.storage, file) ? { read: readerOf(links.storage, file) } : {}),
        }
      : null,
    voice: message.voice === true,
    author: message.author,
    createdAt: message.createdAt,
    contact: { uuid: conversation.contact.id, phoneNumber: conversation.contact.phoneNumber, identifier: identity?.identifier ?? null },
    ...(windowed ? { lastContactMessageAt: lastContactMessage?.createdAt ?? null } : {}),
    template: message.templateMessage ? templateOf(message.templateMessage) : null,
    ...(thread ? { thread } : {}),
  };
}

/** The channel with its credentials decrypted; a channel that cannot deliver fails permanently. */
export function channelTargetOf(channel: LoadedMessage['conversation']['channel'], secretsKey: Buffer): ChannelTarget {
  if (channel.deletedAt || !channel.enabled) throw new ChannelDeliveryError('permanent', 'Channel is disabled');
  let credentials: Record<string, unknown> | null = null;
  if (channel.credentialsEncrypted) {
    try {
      credentials = decryptCredentials(channel.credentialsEncrypted, secretsKey);
    } catch {
      throw new ChannelDeliveryError('permanent', 'Channel credentials could not be read; set the webhook secret again');
    }
  }
  return { uuid: channel.id, type: channel.type, config: channel.config, credentials };
}
