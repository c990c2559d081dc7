import type { SentAnnex } from './attachmentRules';

/** One unsent attachment of a conversation (Conversation.attachments: file, description, uuid). */
export interface Attachment {
  /** Local id, also of the upload in flight. */
  id: string;
  name: string;
  contentType: string;
  /** Shown as a 64 px thumbnail for images: an object URL, or the stored file's address. */
  previewUrl: string | null;
  status: 'fetching' | 'uploading' | 'uploaded' | 'failed';
  /** Upload progress, 0 to 1. */
  progress: number;
  description: string;
  /** The stored file once uploaded. */
  annex: SentAnnex | null;
}

const NONE: readonly Attachment[] = [];

/**
 * Unsent attachments per conversation, outside React: an upload keeps going, and lands in its
 * conversation, while the agent looks at another chat; switching back shows it again.
 */
export class AttachmentStore {
  private byConversation = new Map<string, readonly Attachment[]>();
  private listeners = new Set<() => void>();

  list(conversationUuid: string): readonly Attachment[] {
    return this.byConversation.get(conversationUuid) ?? NONE;
  }
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  add(conversationUuid: string, attachment: Attachment): void {
    this.set(conversationUuid, [...this.list(conversationUuid), attachment]);
  }
  /** Changes one attachment; nothing happens if it was removed meanwhile. */
  update(conversationUuid: string, id: string, patch: Partial<Omit<Attachment, 'id'>>): void {
    const list = this.list(conversationUuid);
    if (!list.some((a) => a.id === id)) return;
    this.set(
      conversationUuid,
      list.map((a) => (a.id === id ? { ...a, ...patch } : a)),
    );
  }
  remove(conversationUuid: string, ids: readonly string[]): Attachment[] {
    const list = this.list(conversationUuid);
    const removed = list.filter((a) => ids.includes(a.id));
    if (removed.length)
      this.set(
        conversationUuid,
        list.filter((a) => !ids.includes(a.id)),
      );
    return removed;
  }
  private set(conversationUuid: string, list: readonly Attachment[]): void {
    if (list.length) this.byConversation.set(conversationUuid, list);
    else this.byConversation.delete(conversationUuid);
    this.listeners.forEach((l) => l());
  }
}

export const attachmentStore = new AttachmentStore();
