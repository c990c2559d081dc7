import { randomUUID } from 'node:crypto';
import { signedFileUrl } from '@atende/channels';
import {
  AppError,
  INTERNAL_MESSAGE_TAG,
  UPLOAD_ALLOWED_TYPES,
  UPLOAD_MAX_BYTES,
  Uuid,
  type BodyOf,
  type LivechatMessage,
  type LivechatPublicConfig,
  type sendLivechatVoice,
  type startLivechatSession,
} from '@atende/contract';
import { InboundReceiver, messageIdFor } from '@atende/conversations';
import { fileTypeRefusal, type StorageDriver } from '@atende/storage';
import { livechatFieldsProblems, livechatFieldValues, livechatValidatorPlan } from '@atende/core';
import {
  contactOfIdentity,
  createLivechatVisitor,
  enabledLivechatChannel,
  insertStoredFile,
  livechatChannelOfTenant,
  messageConversation,
  storedFilesByIds,
  tenantConfigById,
  usernamesOf,
  visitorMessages,
} from '@atende/db';
import type { AppContext } from '../../context';
import { payloadTooLarge } from '../../payload-limit';
import { appearanceOf } from '../channels/service';
import { signVisitorToken, verifyVisitorToken, type VisitorClaims } from './visitor-token';

type StorageWriter = Pick<StorageDriver, 'put' | 'remove' | 'service'>;

/** How a livechat visitor is known to the channel (ContactIdentity.identifier). */
export const visitorIdentifier = (visitorId: string) => `livechat:${visitorId}`;

const POLL_INTERVAL_MS = 400;
const IMAGE_LINK_TTL_SECONDS = 24 * 3600;

/**
 * The public side of livechat channels: the widget's appearance, visitor sessions from
 * the pre-chat form, and visitor messages, which enter through the same InboundReceiver as every
 * other channel so queue, distribution, menus and out-of-hours behave alike. No user session here:
 * the channel uuid is public, a visitor is who holds a visitor token.
 */
export class LivechatService {
  private readonly receiver: InboundReceiver;

  constructor(private readonly ctx: AppContext) {
    this.receiver = new InboundReceiver(ctx);
  }

  /** An enabled, not deleted livechat channel; anything else is 404 (the widget shows nothing). */
  private async channel(channelId: string) {
    const row = await enabledLivechatChannel(this.ctx.db, channelId);
    if (!row) throw new AppError('channel_not_found', 'Channel not found');
    return row;
  }

  /** A file of the storage module as a signed link (images of the appearance, attachments), an https address as itself. */
  private imageUrl(publicUrl: string, ref: string | null): string | null {
    if (!ref) return null;
    if (!Uuid.safeParse(ref).success) return ref;
    return signedFileUrl({ publicUrl, secret: this.ctx.env.FILE_LINK_SECRET, fileId: ref, ttlSeconds: IMAGE_LINK_TTL_SECONDS });
  }

  async config(channelId: string, publicUrl: string): Promise<LivechatPublicConfig> {
    const row = await this.channel(channelId);
    const appearance = appearanceOf(row.config);
    const w = appearance.widget_settings;
    return {
      channel_uuid: row.id,
      name: row.name,
      theme_data: appearance.theme_data,
      widget_settings: {
        title: w.title,
        logo_url: this.imageUrl(publicUrl, w.logo),
        avatar_url: this.imageUrl(publicUrl, w.avatar),
        background_url: this.imageUrl(publicUrl, w.background_image),
        audio_recording_allowed: w.audio_recording_allowed,
      },
      custom_fields: appearance.custom_fields,
    };
  }

  /** The pre-chat form: custom fields checked by the channel's rules (400 naming each), then a new visitor contact. */
  async startSession(channelId: string, body: BodyOf<typeof startLivechatSession>) {
    const row = await this.channel(channelId);
    const fields = appearanceOf(row.config).custom_fields;
    // A validator saved before the pattern budget is skipped, not run: say so to the operator.
    const plan = livechatValidatorPlan(fields);
    const skipped = fields.filter((_, index) => plan[index] === 'unusable' || plan[index] === 'over_budget').map((f) => f.key);
    if (skipped.length)
      this.ctx.log.warn(
        { channelId: row.id, fields: skipped },
        'livechat validators over the pattern budget are not run; save the appearance again',
      );
    const problems = livechatFieldsProblems(fields, body.custom_fields);
    if (problems.length) throw new AppError('validation_failed', problems[0]!.message, problems);
    const visitorId = randomUUID();
    const email = body.email?.trim().toLowerCase() || null;
    await createLivechatVisitor(this.ctx.db, {
      tenantId: row.tenantId,
      channelId: row.id,
      identifier: visitorIdentifier(visitorId),
      name: body.name,
      email,
      livechatCustomFields: livechatFieldValues(fields, body.custom_fields),
    });
    const token = signVisitorToken(
      this.ctx.env.LIVECHAT_TOKEN_SECRET,
      { channelId: row.id, visitorId, tenantId: row.tenantId },
      this.ctx.env.LIVECHAT_TOKEN_TTL_SECONDS,
    );
    return { visitor_token: token, visitor_id: visitorId };
  }

  /** The token's visitor on a channel that still takes chats; a token for another channel than the one named is refused. */
  private async visitor(authorization: string | undefined, channelUuid: string | undefined) {
    const claims: VisitorClaims = verifyVisitorToken(this.ctx.env.LIVECHAT_TOKEN_SECRET, authorization);
    if (channelUuid !== undefined && channelUuid !== claims.channelId)
      throw new AppError('chat_session_other_channel', 'This chat session belongs to another channel');
    const row = await livechatChannelOfTenant(this.ctx.db, claims.tenantId, claims.channelId);
    if (!row) throw new AppError('chat_session_invalid', 'Invalid or expired chat session');
    if (!row.enabled) throw new AppError('channel_disabled_inbound', 'This channel is disabled');
    const identity = await contactOfIdentity(this.ctx.db, row.id, visitorIdentifier(claims.visitorId));
    if (!identity) throw new AppError('chat_session_invalid', 'Invalid or expired chat session');
    return { channel: row, claims, contactId: identity.contactId, name: identity.contact.name };
  }

  async send(authorization: string | undefined, body: { id: string; content: string; channel_uuid?: string }) {
    const { channel, claims, name } = await this.visitor(authorization, body.channel_uuid);
    const tenantConfig = await tenantConfigById(this.ctx.db, channel.tenantId);
    const result = await this.receiver.receive(
      {
        id: channel.id,
        tenantId: channel.tenantId,
        workspaceId: channel.workspaceId,
        entrySectorId: channel.entrySectorId,
        entryMenuId: channel.entryMenuId,
        entryBotId: channel.entryBotId,
        tenantConfig,
      },
      // The visitor's own message id, scoped to them: two visitors' "1" are different messages.
      {
        contact: { identifier: visitorIdentifier(claims.visitorId), name },
        message: { id: `${claims.visitorId}:${body.id}`, content: body.content },
      },
    );
    return { conversation_uuid: result.conversation_uuid, message_uuid: result.message_uuid };
  }

  /**
   * A visitor's voice note, where the channel's appearance allows audio recording: the bytes are
   * checked (5 MB, an audio type that matches its content), stored like an agent's upload and sent
   * through the InboundReceiver as the message's annex. A repeated id answers the first message
   * without storing the file again.
   */
  async sendVoice(authorization: string | undefined, body: BodyOf<typeof sendLivechatVoice>, writer: StorageWriter) {
    const { channel, claims, name } = await this.visitor(authorization, body.channel_uuid);
    if (!appearanceOf(channel.config).widget_settings.audio_recording_allowed)
      throw new AppError('livechat_voice_disabled', 'Voice messages are not allowed in this chat');
    const externalId = `${claims.visitorId}:${body.id}`;
    const known = await messageConversation(this.ctx.db, messageIdFor(channel.id, externalId));
    if (known) return { conversation_uuid: known.conversationId, message_uuid: known.id };
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body.file) || body.file.length % 4 !== 0)
      throw new AppError('file_base64_invalid', 'file: not valid base64');
    const bytes = Buffer.from(body.file, 'base64');
    if (bytes.length === 0) throw new AppError('file_empty', 'The file is empty');
    if (bytes.length > UPLOAD_MAX_BYTES) throw payloadTooLarge(UPLOAD_MAX_BYTES);
    if (fileTypeRefusal({ contentType: body.content_type, bytes }, UPLOAD_ALLOWED_TYPES))
      throw new AppError('file_content_mismatch', `The file's content is not ${body.content_type}.`, undefined, {
        type: body.content_type,
      });
    const id = randomUUID();
    const key = `${channel.tenantId}/${id}`;
    const filename = `voice.${body.content_type.split('/')[1] ?? 'webm'}`;
    await writer.put(key, bytes, { contentType: body.content_type, size: bytes.length });
    try {
      await insertStoredFile(this.ctx.db, {
        id,
        tenantId: channel.tenantId,
        originalFilename: filename,
        contentType: body.content_type,
        size: bytes.length,
        service: writer.service,
        storageKey: key,
        uploadedById: null,
      });
    } catch (error) {
      await writer.remove(key).catch((cleanup: unknown) => this.ctx.log.warn({ err: cleanup, key }, 'could not remove an orphaned upload'));
      throw error;
    }
    const tenantConfig = await tenantConfigById(this.ctx.db, channel.tenantId);
    const result = await this.receiver.receive(
      {
        id: channel.id,
        tenantId: channel.tenantId,
        workspaceId: channel.workspaceId,
        entrySectorId: channel.entrySectorId,
        entryMenuId: channel.entryMenuId,
        entryBotId: channel.entryBotId,
        tenantConfig,
      },
      {
        contact: { identifier: visitorIdentifier(claims.visitorId), name },
        message: {
          id: externalId,
          annex: { id, contentType: body.content_type, originalFilename: filename, size: bytes.length, service: writer.service },
        },
      },
    );
    return { conversation_uuid: result.conversation_uuid, message_uuid: result.message_uuid };
  }

  private async messagesOf(
    tenantId: string,
    channelId: string,
    contactId: string,
    after: Date | null,
    publicUrl: string,
  ): Promise<LivechatMessage[]> {
    // Notes are for colleagues only: never shown to the contact.
    const rows = await visitorMessages(this.ctx.db, {
      tenantId,
      channelId,
      contactId,
      after,
      internalTag: INTERNAL_MESSAGE_TAG,
      take: 200,
    });
    const annexIds = [...new Set(rows.map((r) => r.annexId).filter((v): v is string => v !== null))];
    const files = annexIds.length ? await storedFilesByIds(this.ctx.db, tenantId, annexIds) : [];
    const annexOf = (id: string | null) => {
      const file = id ? files.find((f) => f.id === id) : undefined;
      return file ? { url: this.imageUrl(publicUrl, file.id)!, content_type: file.contentType, filename: file.originalFilename } : null;
    };
    const userIds = [...new Set(rows.map((r) => r.userId).filter((v): v is number => v !== null))];
    const users = userIds.length ? await usernamesOf(this.ctx.db, tenantId, userIds) : [];
    return rows.map((r) => ({
      uuid: r.id,
      from: r.author === 'CONTACT' ? ('visitor' as const) : r.author === 'USER' ? ('agent' as const) : ('system' as const),
      content: r.content,
      annex: annexOf(r.annexId),
      agent_name: r.author === 'USER' ? (users.find((u) => u.id === r.userId)?.username ?? null) : null,
      created_at: r.createdAt.toISOString(),
    }));
  }

  /**
   * The visitor's messages; with `wait`, long polling: the request is held (checking every 400 ms)
   * until a message newer than `after` exists or the wait ends, so agent replies show at once
   * without a socket, on any api node.
   */
  async list(
    authorization: string | undefined,
    query: { after?: string; wait: number; channel_uuid?: string },
    publicUrl: string,
    gone: () => boolean,
  ): Promise<LivechatMessage[]> {
    const { channel, contactId } = await this.visitor(authorization, query.channel_uuid);
    const after = query.after ? new Date(query.after) : null;
    const deadline = Date.now() + query.wait * 1000;
    for (;;) {
      const messages = await this.messagesOf(channel.tenantId, channel.id, contactId, after, publicUrl);
      // `after` is inclusive (two messages may share a millisecond): the one the widget already has is not news.
      const fresh = after ? messages.filter((m) => m.created_at !== after.toISOString()) : messages;
      if (fresh.length > 0 || Date.now() >= deadline || gone()) return messages;
      await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    }
  }
}
