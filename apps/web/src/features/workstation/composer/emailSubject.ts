import { replySubject, threadSubjectOf, type Message } from '@atende/contract';

type WithDetails = Pick<Message, 'interactive_content'>;

/**
 * The subject a reply in an e-mail conversation goes under, as the worker sends it: "Re: " and the
 * subject of the mail answered (the one replied to, else the latest with a subject; contract threadSubjectOf).
 */
export function replySubjectFor(messages: readonly WithDetails[], repliedTo: WithDetails | null): string {
  return replySubject(
    threadSubjectOf(
      messages.map((m) => m.interactive_content),
      repliedTo?.interactive_content,
    ),
  );
}

/** The subject to send: only one the agent typed that differs from the reply's own (a new thread). */
export function ownSubject(typed: string | null, replyingUnder: string): string | undefined {
  const subject = typed?.trim();
  return subject && subject !== replyingUnder ? subject.slice(0, 200) : undefined;
}
