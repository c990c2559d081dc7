import type { ChannelAdapter, SendResult } from '../adapter';

/**
 * Livechat: the visitor's widget reads the conversation from the api, so an agent's
 * message is delivered once it is stored; there is no external system to post to or webhook to verify.
 */
export class LivechatAdapter implements ChannelAdapter {
  readonly types = ['livechat'] as const;

  async send(): Promise<SendResult> {
    return { externalId: null };
  }

  verifySignature(): boolean {
    return false;
  }
}
