import type { Conversation, Message, User } from '@atende/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { api } from '../../api/client';
import { optimisticMessage, setStatus, type MessagePage } from './messageCache';
import { patchListedConversation, storeSentMessages, workstationKeys } from './queries';

export interface Outgoing {
  content: string;
  internal: boolean;
  replyToUuid: string | null;
  annexUuid?: string;
  voice?: boolean;
  /** The uploaded file, shown on the optimistic copy until the server's copy replaces it. */
  annex?: Omit<NonNullable<Message['annex']>, 'service'>;
  /** E-mail: a subject of the agent's own, which starts a new thread. */
  subject?: string;
}

/** How long a send may take before it is shown as failed (the time-out wrapper of every call). */
export const SEND_TIMEOUT_MS = 15_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('send timed out')), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/**
 * Optimistic send: the message shows at once, faded, then is replaced by the server's
 * copy; on failure it is marked failed with click-to-retry. The client-chosen uuid makes a retry
 * idempotent: the server never stores the message twice.
 */
export function useSendMessage(conversation: Conversation, me: User) {
  const queryClient = useQueryClient();
  const key = workstationKeys.messages(conversation.uuid);
  // Sends are delivered one after another, so several sent at once (attachments, then the text)
  // reach the server, and the contact, in the order they were sent. `deliver` never rejects.
  const queue = useRef<Promise<void>>(Promise.resolve());

  const deliver = useCallback(
    async (uuid: string, out: Outgoing) => {
      try {
        const res = await withTimeout(
          api.sendMessage({
            params: { id: conversation.uuid },
            body: {
              uuid,
              content: out.content || undefined,
              internal: out.internal,
              reply_to_uuid: out.replyToUuid,
              annex_uuid: out.annexUuid,
              voice: out.voice,
              subject: out.subject,
            },
          }),
          SEND_TIMEOUT_MS,
        );
        storeSentMessages(queryClient, conversation.uuid, res.data.data);
        const last = res.data.data.at(-1);
        if (last)
          patchListedConversation(queryClient, conversation.uuid, (c) => ({
            ...c,
            last_message: { when: last.when, tags: last.tags, content: last.message, author: last.author },
          }));
      } catch {
        queryClient.setQueryData<MessagePage>(key, (page) => (page ? setStatus(page, uuid, 'failed') : page));
      }
    },
    [conversation.uuid, key, queryClient],
  );

  const send = useCallback(
    (out: Outgoing) => {
      const uuid = crypto.randomUUID();
      const local = {
        ...optimisticMessage({
          uuid,
          conversationUuid: conversation.uuid,
          content: out.content,
          internal: out.internal,
          replyToUuid: out.replyToUuid,
          user: me,
        }),
        annex: out.annex ? { ...out.annex, service: 'local' } : null,
        voice: out.voice === true,
      };
      queryClient.setQueryData<MessagePage>(key, (page) => ({
        messages: [...(page?.messages ?? []), local],
        hasMore: page?.hasMore ?? false,
      }));
      queue.current = queue.current.then(() => deliver(uuid, out));
    },
    [conversation.uuid, deliver, key, me, queryClient],
  );

  const retry = useCallback(
    (message: Message) => {
      queryClient.setQueryData<MessagePage>(key, (page) => (page ? setStatus(page, message.uuid, 'sending') : page));
      void deliver(message.uuid, {
        content: message.message,
        internal: message.internal,
        replyToUuid: message.reply_to_uuid,
        annexUuid: message.annex?.uuid,
        voice: message.voice,
      });
    },
    [deliver, key, queryClient],
  );

  return { send, retry };
}
