/** Draft of one conversation: text, the message replied to, note mode. */
export interface Draft {
  text: string;
  replyToUuid: string | null;
  internal: boolean;
}
export const EMPTY_DRAFT: Draft = { text: '', replyToUuid: null, internal: false };

const STORAGE_KEY = 'atende:drafts';

/**
 * Drafts per conversation, kept for the tab's life in session storage: switching conversations or
 * reloading the page never loses what was typed.
 */
export class DraftStore {
  private drafts: Record<string, Draft>;
  constructor(private readonly storage: Pick<Storage, 'getItem' | 'setItem'> | null) {
    this.drafts = DraftStore.read(storage);
  }
  private static read(storage: Pick<Storage, 'getItem'> | null): Record<string, Draft> {
    try {
      const parsed: unknown = JSON.parse(storage?.getItem(STORAGE_KEY) ?? '{}');
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, Draft>) : {};
    } catch {
      return {};
    }
  }
  get(conversationUuid: string): Draft {
    return { ...EMPTY_DRAFT, ...this.drafts[conversationUuid] };
  }
  set(conversationUuid: string, draft: Draft): void {
    if (!draft.text && !draft.replyToUuid && !draft.internal) delete this.drafts[conversationUuid];
    else this.drafts[conversationUuid] = draft;
    try {
      this.storage?.setItem(STORAGE_KEY, JSON.stringify(this.drafts));
    } catch {
      // A full storage only costs persistence across reloads; the in-memory draft remains.
    }
  }
  /** Forget drafts of conversations no longer held. */
  keepOnly(conversationUuids: readonly string[]): void {
    const keep = new Set(conversationUuids);
    for (const uuid of Object.keys(this.drafts)) if (!keep.has(uuid)) delete this.drafts[uuid];
    try {
      this.storage?.setItem(STORAGE_KEY, JSON.stringify(this.drafts));
    } catch {
      // see set()
    }
  }
}

export const drafts = new DraftStore(typeof sessionStorage === 'undefined' ? null : sessionStorage);

/** Bold, italic and strikethrough wrap the selection in ** _ ~. */
export function wrapSelection(
  text: string,
  start: number,
  end: number,
  marker: '**' | '_' | '~',
): { text: string; start: number; end: number } {
  const selected = text.slice(start, end);
  const next = `${text.slice(0, start)}${marker}${selected}${marker}${text.slice(end)}`;
  return { text: next, start: start + marker.length, end: end + marker.length };
}

const PINNED_KEY = 'pinneds';
/** Pinned conversation uuids, in session storage under the key `pinneds`. */
export function readPinned(
  storage: Pick<Storage, 'getItem'> | null = typeof sessionStorage === 'undefined' ? null : sessionStorage,
): string[] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(PINNED_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}
export function writePinned(
  uuids: readonly string[],
  storage: Pick<Storage, 'setItem'> | null = typeof sessionStorage === 'undefined' ? null : sessionStorage,
): void {
  storage?.setItem(PINNED_KEY, JSON.stringify(uuids));
}
