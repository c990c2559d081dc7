import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { channelText, outcomeText } from './journeyLabels';

const t = ((key: string) => `«${key}»`) as unknown as TFunction;

describe('journey labels', () => {
  it('words who ended a conversation, keeps an end reason as the admin wrote it', () => {
    expect(outcomeText('agent', t)).toBe('«Finished by the agent»');
    expect(outcomeText('automation', t)).toBe('«Closed by an automation»');
    expect(outcomeText('Solved', t)).toBe('Solved');
    expect(outcomeText(null, t)).toBe('--');
  });
  it('names the channel, falling back to its type', () => {
    expect(channelText({ channel_name: 'WhatsApp Vendas', channel_type: 'whatsapp_360dialog' })).toBe('WhatsApp Vendas');
    expect(channelText({ channel_name: null, channel_type: 'custom' })).toBe('custom');
    expect(channelText({ channel_type: null })).toBe('--');
  });
});
