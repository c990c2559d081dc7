import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChannelTarget } from '../adapter';
import type { InboundEvent, ProviderChannelAdapter } from '../provider';
import { TelegramAdapter } from './adapter';

/**
 * Contract tests against the example updates Telegram publishes (fixtures/provider-docs/telegram,
 * whose README names each document): what the adapter makes of the payloads the Bot API documents,
 * independent of our simulator. A test marked `it.fails` states what a correct parse would be and
 * fails today; its comment says what is wrong.
 */

const adapter: ProviderChannelAdapter = new TelegramAdapter();
const channel: ChannelTarget = {
  uuid: 'ch-telegram',
  type: 'telegram',
  config: {},
  credentials: { bot_token: '7000000123:AAdocs-token', webhook_secret: 'docs-secret' },
};

const fixture = (name: string) => readFileSync(new URL(`../fixtures/provider-docs/telegram/${name}`, import.meta.url), 'utf8');
const parse = async (name: string) => adapter.parseWebhook({ rawBody: fixture(name), contentType: 'application/json' }, channel);

/** The contact of the documentation's examples (chat and user 1111111). */
const testUser = {
  from: '1111111',
  profileName: 'Test Firstname Test Lastname',
  sender: { identifier: '1111111', name: 'Test Firstname Test Lastname', username: 'Testusername' },
};
/** The same contact in the updates built from the field tables: first name only, no username. */
const tableUser = {
  from: '1111111',
  profileName: 'Test Firstname',
  sender: { identifier: '1111111', name: 'Test Firstname', username: null },
};

const message = (fields: Partial<Extract<InboundEvent, { kind: 'message' }>>): InboundEvent => ({
  kind: 'message',
  externalId: '1111111:1365',
  ...testUser,
  text: null,
  media: null,
  button: null,
  contextExternalId: null,
  at: new Date(1441645532 * 1000),
  ...fields,
});

describe('Telegram Bot API documented updates: text messages', () => {
  it("takes a private text message as the contact's message, identified by chat and message id", async () => {
    expect(await parse('message-text.json')).toEqual([message({ text: '/start' })]);
  });

  it('keeps a message with formatting entities as its plain text', async () => {
    expect(await parse('message-entities.json')).toEqual([message({ text: 'Bold and italics' })]);
  });

  it('keeps forwarded messages (from a user and from a channel) as the text the contact sent', async () => {
    expect(await parse('forwarded-message.json')).toEqual([message({ text: '/start' })]);
    expect(await parse('forwarded-channel-message.json')).toEqual([message({ text: '/start' })]);
  });

  it('keeps the text of a reply', async () => {
    expect(await parse('message-reply.json')).toMatchObject([{ kind: 'message', externalId: '1111111:1365', text: '/start' }]);
  });

  // The reply's reply_to_message names the message it answers, as the Messenger, Cloud API and
  // Twilio adapters fill contextExternalId from theirs.
  it('names the message a reply answers (chat and message id of reply_to_message)', async () => {
    expect(await parse('message-reply.json')).toEqual([message({ text: '/start', contextExternalId: '1111112:1334' })]);
  });

  // The webhook guide's first example has no chat.type (it predates the field; the Bot API table now
  // marks it required): it is read as the private message it is (chat id = sender id).
  it("reads the guide's first text example, whose chat has no type", async () => {
    expect(await parse('message-text-without-chat-type.json')).toEqual([
      message({
        text: '/start',
        profileName: 'Test Test Lastname',
        sender: { identifier: '1111111', name: 'Test Test Lastname', username: 'Test' },
      }),
    ]);
  });
});

describe('Telegram Bot API documented updates: files', () => {
  it('takes a voice message as a voice note with its file id and type', async () => {
    expect(await parse('message-voice.json')).toEqual([
      message({
        media: { ref: 'AwADBAADbXXXXXXXXXXXGBdhD2l6_XX', contentType: 'audio/ogg', filename: null, caption: null, voice: true },
      }),
    ]);
  });

  it("takes an audio file and a document with their types and the document's name", async () => {
    expect(await parse('message-audio.json')).toEqual([
      message({ media: { ref: 'AwADBAADbXXXXXXXXXXXGBdhD2l6_XX', contentType: 'audio/mpeg', filename: null, caption: null } }),
    ]);
    expect(await parse('message-document.json')).toEqual([
      message({
        media: { ref: 'AwADBAADbXXXXXXXXXXXGBdhD2l6_XX', contentType: 'application/pdf', filename: 'Testfile.pdf', caption: null },
      }),
    ]);
  });

  it('takes the largest size of a photo, with its caption', async () => {
    expect(await parse('message-photo.json')).toEqual([
      message({
        externalId: '1111111:1366',
        ...tableUser,
        at: new Date(1441645600 * 1000),
        media: { ref: 'AgADBAADphoto_800', contentType: 'image/jpeg', filename: null, caption: 'Photo caption' },
      }),
    ]);
  });

  it('takes a sticker as a file', async () => {
    expect(await parse('message-sticker.json')).toEqual([
      message({
        externalId: '1111111:1369',
        ...tableUser,
        at: new Date(1441645900 * 1000),
        media: { ref: 'CAADBAADsticker_512', contentType: 'image/webp', filename: null, caption: null },
      }),
    ]);
  });

  // A Sticker has no mime_type field; its format follows from is_animated / is_video (a static
  // sticker is WEBP, an animated one TGS, a video one WEBM), and Telegram serves the download as
  // application/octet-stream, so the type is named from the flags.
  it("names a static sticker's type (image/webp)", async () => {
    const [event] = await parse('message-sticker.json');
    expect(event).toMatchObject({ media: { ref: 'CAADBAADsticker_512', contentType: 'image/webp' } });
  });

  it('names an animated sticker TGS and a video sticker WEBM', async () => {
    const sticker = (flag: string) =>
      adapter.parseWebhook(
        { rawBody: fixture('message-sticker.json').replace(`"${flag}": false`, `"${flag}": true`), contentType: 'application/json' },
        channel,
      );
    expect(await sticker('is_animated')).toMatchObject([{ media: { contentType: 'application/x-tgsticker' } }]);
    expect(await sticker('is_video')).toMatchObject([{ media: { contentType: 'video/webm' } }]);
  });
});

describe('Telegram Bot API documented updates: locations, contacts and other kinds', () => {
  it('keeps a location as a map link with its coordinates', async () => {
    expect(await parse('message-location.json')).toEqual([
      message({
        externalId: '1111111:1367',
        ...tableUser,
        at: new Date(1441645700 * 1000),
        text: 'https://www.openstreetmap.org/?mlat=52.370216&mlon=4.895168#map=17/52.370216/4.895168',
        details: { type: 'location', latitude: 52.370216, longitude: 4.895168, name: null, address: null },
      }),
    ]);
  });

  it('keeps a shared contact as a card', async () => {
    expect(await parse('message-contact.json')).toEqual([
      message({
        externalId: '1111111:1368',
        ...tableUser,
        at: new Date(1441645800 * 1000),
        text: 'Contact Firstname\n+15551234567',
        details: { type: 'contact', name: 'Contact Firstname', phones: ['+15551234567'], emails: [] },
      }),
    ]);
  });

  it('keeps a kind it cannot show (a dice) as unsupported content naming its field', async () => {
    expect(await parse('message-dice.json')).toEqual([
      message({
        externalId: '1111111:1370',
        ...tableUser,
        at: new Date(1441646000 * 1000),
        text: '',
        details: { type: 'unsupported', raw_type: 'dice' },
      }),
    ]);
  });

  it('acknowledges an edited message without a new message (an edit does not rewrite history)', async () => {
    expect(await parse('edited-message.json')).toEqual([]);
  });

  it('acknowledges inline queries, chosen inline results and callback queries without messages', async () => {
    expect(await parse('inline-query.json')).toEqual([]);
    expect(await parse('chosen-inline-result.json')).toEqual([]);
    expect(await parse('callback-query.json')).toEqual([]);
  });
});
