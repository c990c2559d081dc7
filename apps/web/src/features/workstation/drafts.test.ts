import { describe, expect, it } from 'vitest';
import { DraftStore, readPinned, wrapSelection, writePinned } from './drafts';

function memoryStorage() {
  const data = new Map<string, string>();
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
}

describe('drafts', () => {
  it('keeps a draft per conversation across switching and reloads', () => {
    const storage = memoryStorage();
    const store = new DraftStore(storage);
    store.set('a', { text: 'Olá, tudo', replyToUuid: null, internal: false });
    store.set('b', { text: 'nota', replyToUuid: 'm1', internal: true });
    expect(store.get('a').text).toBe('Olá, tudo');
    const reloaded = new DraftStore(storage);
    expect(reloaded.get('b')).toEqual({ text: 'nota', replyToUuid: 'm1', internal: true });
    expect(reloaded.get('unknown')).toEqual({ text: '', replyToUuid: null, internal: false });
  });

  it('forgets emptied drafts and drafts of conversations no longer held', () => {
    const storage = memoryStorage();
    const store = new DraftStore(storage);
    store.set('a', { text: 'x', replyToUuid: null, internal: false });
    store.set('b', { text: 'y', replyToUuid: null, internal: false });
    store.set('a', { text: '', replyToUuid: null, internal: false });
    store.keepOnly([]);
    expect(JSON.parse(storage.getItem('atende:drafts')!)).toEqual({});
  });

  it('survives corrupt storage', () => {
    const storage = memoryStorage();
    storage.setItem('atende:drafts', '{not json');
    expect(new DraftStore(storage).get('a').text).toBe('');
  });
});

describe('wrapSelection', () => {
  it('wraps the selection and keeps it selected', () => {
    expect(wrapSelection('say hello now', 4, 9, '**')).toEqual({ text: 'say **hello** now', start: 6, end: 11 });
    expect(wrapSelection('ab', 1, 1, '_')).toEqual({ text: 'a__b', start: 2, end: 2 });
  });
});

describe('pinned', () => {
  it('are stored under pinneds', () => {
    const storage = memoryStorage();
    writePinned(['a', 'b'], storage);
    expect(storage.getItem('pinneds')).toBe('["a","b"]');
    expect(readPinned(storage)).toEqual(['a', 'b']);
    storage.setItem('pinneds', '{"x":1}');
    expect(readPinned(storage)).toEqual([]);
  });
});
