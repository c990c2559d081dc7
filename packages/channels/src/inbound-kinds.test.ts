import { describe, expect, it } from 'vitest';
import { parseMetaMessagingWebhook } from './meta/webhook';
import { parseTelegramUpdate } from './telegram/updates';
import { parseCloudWebhook } from './whatsapp/cloud-webhook';
import type { InboundEvent } from './provider';

/**
 * Every kind of contact message each provider delivers becomes a message event: nothing a contact
 * sends is acknowledged and dropped. The bodies follow the shapes of the providers' published
 * webhook references (WhatsApp Cloud API messages, Messenger Platform and Instagram messaging
 * webhook events, Telegram Bot API Update objects).
 */
const messages = (events: InboundEvent[]) =>
  events.flatMap((e) =>
    e.kind === 'message' ? [{ externalId: e.externalId, text: e.text, media: e.media?.ref ?? null, details: e.details ?? null }] : [],
  );

const cloud = (message: object) =>
  JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
              contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: '16505551234' }],
              messages: [
                {
                  from: '16505551234',
                  id: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=',
                  timestamp: '1749416383',
                  ...message,
                },
              ],
            },
          },
        ],
      },
    ],
  });

describe('WhatsApp Cloud API: location, contacts, reactions and unknown kinds', () => {
  it('keeps a location as its name, address and map link', () => {
    const [message] = messages(
      parseCloudWebhook(
        cloud({
          type: 'location',
          location: { address: '1 Hacker Way, Menlo Park, CA 94025', latitude: 37.483307, longitude: -122.148981, name: 'Main Office' },
        }),
      ),
    );
    expect(message?.text).toBe(
      'Main Office\n1 Hacker Way, Menlo Park, CA 94025\nhttps://www.openstreetmap.org/?mlat=37.483307&mlon=-122.148981#map=17/37.483307/-122.148981',
    );
    expect(message?.details).toMatchObject({ type: 'location', latitude: 37.483307, longitude: -122.148981, name: 'Main Office' });
  });

  it('keeps shared contacts as cards, every one in the text', () => {
    const [message] = messages(
      parseCloudWebhook(
        cloud({
          type: 'contacts',
          contacts: [
            {
              name: { formatted_name: 'Barbara Johnson', first_name: 'Barbara' },
              phones: [{ phone: '+1 (940) 555-1234', type: 'HOME' }],
              emails: [{ email: 'bjohnson@example.com', type: 'HOME' }],
            },
            { name: { formatted_name: 'Pablo Morales' }, phones: [{ phone: '+1 (650) 555-1234', wa_id: '16505551234' }] },
          ],
        }),
      ),
    );
    expect(message?.text).toBe('Barbara Johnson\n+1 (940) 555-1234\nbjohnson@example.com\n\nPablo Morales\n+1 (650) 555-1234');
    expect(message?.details).toEqual({
      type: 'contact',
      name: 'Barbara Johnson',
      phones: ['+1 (940) 555-1234'],
      emails: ['bjohnson@example.com'],
    });
  });

  it('keeps a reaction by its emoji, and a kind it cannot show by its type', () => {
    const [reaction] = messages(
      parseCloudWebhook(cloud({ type: 'reaction', reaction: { message_id: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBI3', emoji: '👍' } })),
    );
    expect(reaction).toMatchObject({ text: '👍', details: { type: 'reaction', emoji: '👍' } });
    const [unsupported] = messages(
      parseCloudWebhook(
        cloud({ type: 'unsupported', errors: [{ code: 131051, title: 'Message type unknown', message: 'Message type unknown' }] }),
      ),
    );
    expect(unsupported).toMatchObject({ text: '', details: { type: 'unsupported', raw_type: 'unsupported' } });
  });
});

const page = (object: 'page' | 'instagram', messaging: object) =>
  JSON.stringify({
    object,
    entry: [
      {
        id: '17841400000000000',
        time: 1749416383000,
        messaging: [{ sender: { id: '1254459154682919' }, recipient: { id: '17841400000000000' }, timestamp: 1749416383000, ...messaging }],
      },
    ],
  });

describe('Messenger and Instagram: postbacks, several attachments, stories', () => {
  it('keeps a postback (Get Started, a menu button) as its title, with its payload in the details', () => {
    expect(
      messages(
        parseMetaMessagingWebhook(
          page('page', { postback: { mid: 'm-postback-1', title: 'Get Started', payload: 'GET_STARTED' } }),
          'page',
        ),
      ),
    ).toEqual([{ externalId: 'm-postback-1', text: 'Get Started', media: null, details: { type: 'postback', payload: 'GET_STARTED' } }]);
  });

  it('makes every attachment a message of its own, the text on the first', () => {
    const body = page('page', {
      message: {
        mid: 'm_two',
        text: 'Fotos',
        attachments: [
          { type: 'image', payload: { url: 'https://scontent.xx.fbcdn.net/v/a.jpg' } },
          { type: 'image', payload: { url: 'https://scontent.xx.fbcdn.net/v/b.jpg' } },
        ],
      },
    });
    expect(messages(parseMetaMessagingWebhook(body, 'page'))).toEqual([
      { externalId: 'm_two', text: 'Fotos', media: 'https://scontent.xx.fbcdn.net/v/a.jpg', details: null },
      { externalId: 'm_two#2', text: '', media: 'https://scontent.xx.fbcdn.net/v/b.jpg', details: null },
    ]);
  });

  it('keeps an Instagram story mention with its media, and a reply to a story naming the story', () => {
    const mention = page('instagram', {
      message: {
        mid: 'aWdfZAG1mention',
        attachments: [{ type: 'story_mention', payload: { url: 'https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=1' } }],
      },
    });
    expect(messages(parseMetaMessagingWebhook(mention, 'instagram'))).toEqual([
      {
        externalId: 'aWdfZAG1mention',
        text: '',
        media: 'https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=1',
        details: { type: 'story_mention' },
      },
    ]);
    const reply = page('instagram', {
      message: {
        mid: 'aWdfZAG1reply',
        text: 'Que lindo!',
        reply_to: { story: { url: 'https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=2', id: '3' } },
      },
    });
    expect(messages(parseMetaMessagingWebhook(reply, 'instagram'))).toEqual([
      {
        externalId: 'aWdfZAG1reply',
        text: 'Que lindo!',
        media: null,
        details: { type: 'story_reply', story_url: 'https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=2' },
      },
    ]);
  });

  it('keeps a shared link by its address, and an unsupported message naming it', () => {
    const shared = page('page', {
      message: { mid: 'm_share', attachments: [{ type: 'fallback', payload: { url: 'https://example.com/p', title: 'Produto' } }] },
    });
    expect(messages(parseMetaMessagingWebhook(shared, 'page'))).toEqual([
      { externalId: 'm_share', text: 'Produto\nhttps://example.com/p', media: null, details: null },
    ]);
    const unsupported = page('instagram', { message: { mid: 'm_unsup', is_unsupported: true } });
    expect(messages(parseMetaMessagingWebhook(unsupported, 'instagram'))).toEqual([
      { externalId: 'm_unsup', text: '', media: null, details: { type: 'unsupported', raw_type: 'message' } },
    ]);
  });
});

describe('Telegram: a message of any kind', () => {
  const update = (message: object) =>
    JSON.stringify({
      update_id: 10000,
      message: {
        message_id: 1365,
        date: 1441645532,
        chat: { id: 1111111, type: 'private', first_name: 'Test' },
        from: { id: 1111111, is_bot: false, first_name: 'Test', last_name: 'Lastname' },
        ...message,
      },
    });

  it('names a kind it cannot show by its field (a dice here)', () => {
    expect(messages(parseTelegramUpdate(update({ dice: { emoji: '🎲', value: 4 } })))).toEqual([
      { externalId: '1111111:1365', text: '', media: null, details: { type: 'unsupported', raw_type: 'dice' } },
    ]);
  });

  it('keeps a plain location as a map link', () => {
    expect(messages(parseTelegramUpdate(update({ location: { latitude: -22.9519, longitude: -43.2105 } })))).toEqual([
      {
        externalId: '1111111:1365',
        text: 'https://www.openstreetmap.org/?mlat=-22.9519&mlon=-43.2105#map=17/-22.9519/-43.2105',
        media: null,
        details: { type: 'location', latitude: -22.9519, longitude: -43.2105, name: null, address: null },
      },
    ]);
  });
});
