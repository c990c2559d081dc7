import { replySubject, type Message } from '@atende/contract';

type WithDetails = Pick<Message, 'interactive_content'>;

const subjectOf = (message: WithDetails | null | undefined): string | null => {
  const details = message?.interactive_content as { type?: unknown; subject?: unknown } | null | undefined;
  return details?.type === 'email' && typeof details.subject === 'string' && details.subject ? details.subject : null;
};

/**
 * The subject a reply in an e-mail conversation goes under, as the worker sends it: "Re: " and the
 * subject of the mail answered (the one replied to, else the latest with a subject).
 */
export function replySubjectFor(messages: readonly WithDetails[], repliedTo: WithDetails | null): string {
  const replied = subjectOf(repliedTo);
  if (replied) return replySubject(replied);
  for (let i = messages.length - 1; i >= 0; i--) {
    const subject = subjectOf(messages[i]);
    if (subject) return replySubject(subject);
  }
  return replySubject(null);
}

/** The subject to send: only one the agent typed that differs from the reply's own (a new thread). */
export function ownSubject(typed: string | null, replyingUnder: string): string | undefined {
  const subject = typed?.trim();
  return subject && subject !== replyingUnder ? subject.slice(0, 200) : undefined;
}
