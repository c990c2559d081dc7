import { describe, expect, it } from 'vitest';
import {
  attachmentRefusal,
  attachmentRuleOf,
  capabilitiesOf,
  CHANNEL_CAPABILITIES,
  textRefusal,
  VOICE_NOTE_TYPE,
  voiceNoteRefusal,
} from './channel-capabilities';

describe('channel capabilities', () => {
  it('says nothing for types without a row: the general upload rules apply', () => {
    expect(attachmentRefusal('whatsapp_cloud', { contentType: 'image/png', size: 999_999_999 })).toBeNull();
    expect(textRefusal('custom', 'x'.repeat(100_000), false)).toBeNull();
  });
  it("applies Telegram's limits by the rule the type travels by", () => {
    const telegram = CHANNEL_CAPABILITIES.telegram!;
    expect(attachmentRuleOf(telegram, 'image/jpeg; q=1')?.kind).toBe('image');
    expect(attachmentRuleOf(telegram, 'image/gif')?.kind).toBe('document');
    expect(attachmentRefusal('telegram', { contentType: 'image/png', size: 11 * 1024 * 1024 })).toEqual({
      code: 'channel_attachment_too_large',
      maxBytes: 10 * 1024 * 1024,
    });
    expect(attachmentRefusal('telegram', { contentType: 'application/zip', size: 11 * 1024 * 1024 })).toBeNull();
    expect(textRefusal('telegram', 'x'.repeat(4096), false)).toBeNull();
    expect(textRefusal('telegram', 'x'.repeat(4097), false)).toEqual({ code: 'channel_text_too_long', max: 4096 });
    expect(textRefusal('telegram', 'x'.repeat(1025), true)).toEqual({ code: 'channel_caption_too_long', max: 1024 });
  });
});

describe('SMS capabilities', () => {
  it('takes no attachment unless the channel has MMS on, and then by the MMS rules', () => {
    expect(attachmentRefusal('sms', { contentType: 'image/png', size: 1000 })).toEqual({ code: 'channel_attachment_type' });
    expect(attachmentRefusal('sms', { contentType: 'image/png', size: 1000 }, { mms_enabled: 'false' })).toEqual({
      code: 'channel_attachment_type',
    });
    expect(attachmentRefusal('sms', { contentType: 'image/png', size: 1000 }, { mms_enabled: 'true' })).toBeNull();
    expect(attachmentRefusal('sms', { contentType: 'image/png', size: 6 * 1024 * 1024 }, { mms_enabled: 'true' })).toEqual({
      code: 'channel_attachment_too_large',
      maxBytes: 5 * 1024 * 1024,
    });
    expect(attachmentRefusal('sms', { contentType: 'application/zip', size: 1000 }, { mms_enabled: 'true' })).toEqual({
      code: 'channel_attachment_type',
    });
    expect(capabilitiesOf('sms')?.smsSegments).toBe(true);
    expect(textRefusal('sms', 'x'.repeat(1601), false)).toEqual({ code: 'channel_text_too_long', max: 1600 });
  });
});

describe('voice notes', () => {
  it('are offered where the Ogg/Opus recording goes out, as a voice note or as audio, and nowhere else', () => {
    expect(voiceNoteRefusal('telegram')).toBeNull();
    expect(voiceNoteRefusal('messenger')).toBeNull();
    expect(voiceNoteRefusal('email')).toBeNull();
    expect(voiceNoteRefusal('whatsapp_cloud')).toBeNull();
    expect(voiceNoteRefusal('custom')).toBeNull();
    expect(voiceNoteRefusal('instagram')).toEqual({ code: 'channel_attachment_type' });
    expect(voiceNoteRefusal('sms')).toEqual({ code: 'channel_attachment_type' });
    expect(voiceNoteRefusal('sms', { mms_enabled: 'true' })).toBeNull();
    expect(VOICE_NOTE_TYPE).toBe('audio/ogg');
  });
});
