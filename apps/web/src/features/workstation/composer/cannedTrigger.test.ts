import { describe, expect, it } from 'vitest';
import { cannedQuery } from './cannedTrigger';

describe('cannedQuery', () => {
  // Suggestions open when the text starts with the trigger symbol and is longer than the minimum.
  it('is the text after the symbol once at least one character follows it', () => {
    expect(cannedQuery('/sau')).toBe('sau');
    expect(cannedQuery('/s')).toBe('s');
  });
  it('is null for the bare symbol, other text, or the symbol later in the text', () => {
    expect(cannedQuery('/')).toBeNull();
    expect(cannedQuery('olá')).toBeNull();
    expect(cannedQuery('a /sau')).toBeNull();
  });
  it('is null once the text has several lines', () => {
    expect(cannedQuery('/sau\nmais')).toBeNull();
  });
});
