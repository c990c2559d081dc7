import { describe, expect, it, vi } from 'vitest';
import { AttachmentStore, type Attachment } from './attachmentStore';

const item = (id: string, patch: Partial<Attachment> = {}): Attachment => ({
  id,
  name: `${id}.png`,
  contentType: 'image/png',
  previewUrl: null,
  status: 'uploading',
  progress: 0,
  description: '',
  annex: null,
  ...patch,
});

describe('AttachmentStore', () => {
  it('keeps the attachments of each conversation apart', () => {
    const store = new AttachmentStore();
    store.add('c1', item('a'));
    store.add('c2', item('b'));
    expect(store.list('c1').map((a) => a.id)).toEqual(['a']);
    expect(store.list('c2').map((a) => a.id)).toEqual(['b']);
  });
  it('lets an upload finish into its conversation and tells subscribers', () => {
    const store = new AttachmentStore();
    const listener = vi.fn();
    store.subscribe(listener);
    store.add('c1', item('a'));
    store.update('c1', 'a', { status: 'uploaded', progress: 1 });
    expect(store.list('c1')[0]).toMatchObject({ status: 'uploaded', progress: 1 });
    expect(listener).toHaveBeenCalledTimes(2);
  });
  it('ignores an upload finishing after its attachment was removed', () => {
    const store = new AttachmentStore();
    store.add('c1', item('a'));
    expect(store.remove('c1', ['a']).map((a) => a.id)).toEqual(['a']);
    store.update('c1', 'a', { status: 'uploaded' });
    expect(store.list('c1')).toEqual([]);
  });
  it('returns the same empty list while a conversation has none (stable for React)', () => {
    const store = new AttachmentStore();
    expect(store.list('x')).toBe(store.list('y'));
  });
});
