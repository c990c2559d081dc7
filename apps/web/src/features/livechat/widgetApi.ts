import { callRoute, type ClientOptions } from '@atende/sdk';
import {
  getLivechatConfig,
  listLivechatMessages,
  sendLivechatMessage,
  sendLivechatVoice,
  startLivechatSession,
  type LivechatMessage,
} from '@atende/contract';

/**
 * The widget's own calls: no user session and none of the agent app's shared error handling
 * (a visitor is never sent to /login); the visitor token travels as Bearer.
 */
const options = (token?: string): ClientOptions => ({ baseUrl: '', timeoutMs: 35_000, ...(token ? { token } : {}) });

export const widgetApi = {
  config: (channelUuid: string) => callRoute(options(), getLivechatConfig, { params: { channel_uuid: channelUuid } }),
  start: (channelUuid: string, body: { name: string; email?: string; custom_fields: Record<string, string> }) =>
    callRoute(options(), startLivechatSession, { params: { channel_uuid: channelUuid }, body }),
  send: (token: string, channelUuid: string, id: string, content: string) =>
    callRoute(options(token), sendLivechatMessage, { body: { id, content, channel_uuid: channelUuid } }),
  /** A voice note (base64), where the channel allows audio recording. */
  voice: (token: string, channelUuid: string, id: string, file: string, contentType: 'audio/webm' | 'audio/ogg' | 'audio/mp4') =>
    callRoute({ ...options(token), timeoutMs: 60_000 }, sendLivechatVoice, {
      body: { id, file, encoding: 'base64', content_type: contentType, channel_uuid: channelUuid },
    }),
  /** Long polling: answers when a message newer than `after` exists, or after `wait` seconds. */
  messages: (token: string, channelUuid: string, after: string | undefined, wait: number) =>
    callRoute(options(token), listLivechatMessages, { query: { channel_uuid: channelUuid, wait, ...(after ? { after } : {}) } }),
};

/** Messages by uuid, oldest first: the widget's list after a poll or a send. */
export function mergeMessages(current: LivechatMessage[], incoming: LivechatMessage[]): LivechatMessage[] {
  const byId = new Map(current.map((m) => [m.uuid, m]));
  for (const m of incoming) byId.set(m.uuid, m);
  return [...byId.values()].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.uuid.localeCompare(b.uuid));
}

const storageKey = (channelUuid: string) => `atende.livechat.${channelUuid}`;
export const visitorTokenStore = {
  get: (channelUuid: string): string | null => {
    try {
      return window.localStorage.getItem(storageKey(channelUuid));
    } catch {
      return null;
    }
  },
  set: (channelUuid: string, token: string | null) => {
    try {
      if (token) window.localStorage.setItem(storageKey(channelUuid), token);
      else window.localStorage.removeItem(storageKey(channelUuid));
    } catch {
      // Storage blocked (third-party iframe): the session lasts as long as the page.
    }
  },
};
