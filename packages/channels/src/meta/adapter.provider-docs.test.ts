import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChannelTarget } from '../adapter';
import type { InboundEvent, ProviderChannelAdapter } from '../provider';
import { InstagramAdapter, MessengerAdapter } from './adapter';

/**
 * Contract tests against the webhook examples Meta publishes for the Messenger Platform and for
 * Instagram messaging (fixtures/provider-docs/meta, whose README names each document and the
 * placeholders we filled in). A test marked `it.fails` states what a correct parse would be and fails
 * today; its comment says what is wrong.
 */

const PAGE = '682498302938465';
const PSID = '1254459154682919';
const IG_ACCOUNT = '17841405309211844';
const IGSID = '1081284650021867';
const IG_MID = 'aWdfZAG1faXRlbToxOklHTWVzc2FnZAUlEOjE3ODQxNDA1MzA5MjExODQ0OjMxOTk4';

const messenger: ProviderChannelAdapter = new MessengerAdapter();
const instagram: ProviderChannelAdapter = new InstagramAdapter();
const credentials = { access_token: 'EAAGdocs-page-token', app_secret: 'docs-app-secret', verify_token: 'docs-verify' };
const messengerChannel: ChannelTarget = { uuid: 'ch-messenger', type: 'messenger', config: { page_id: PAGE }, credentials };
const instagramChannel: ChannelTarget = {
  uuid: 'ch-instagram',
  type: 'instagram',
  config: { page_id: PAGE, instagram_account_id: IG_ACCOUNT },
  credentials,
};

const fixture = (name: string) => readFileSync(new URL(`../fixtures/provider-docs/meta/${name}`, import.meta.url), 'utf8');
const request = (name: string) => ({ rawBody: fixture(name), contentType: 'application/json' });
const parseMessenger = async (name: string) => messenger.parseWebhook(request(name), messengerChannel);
const parseInstagram = async (name: string) => instagram.parseWebhook(request(name), instagramChannel);

type MessageEvent = Extract<InboundEvent, { kind: 'message' }>;
/** A message of the page-scoped (or Instagram-scoped) id `from`: no phone, no name in the webhook. */
const message = (from: string, fields: Partial<MessageEvent> & Pick<MessageEvent, 'externalId' | 'at'>): InboundEvent => ({
  kind: 'message',
  from,
  profileName: null,
  sender: { identifier: from, name: null, username: null },
  text: null,
  media: null,
  button: null,
  contextExternalId: null,
  ...fields,
});

describe('Messenger Platform documented webhook events: messages', () => {
  it('takes a text message from the PSID, identified by its mid', async () => {
    const events = await parseMessenger('messenger-text-quick-reply.json');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      kind: 'message',
      from: PSID,
      sender: { identifier: PSID, name: null, username: null },
      externalId: 'mid.1457764197618:41d102a3e1ae206a38',
      text: 'hello, world!',
      at: new Date(1458692752478),
    });
  });

  // The text example is a Quick Reply tap (message.quick_reply.payload): the event's `button` is
  // the quick reply pressed, as the Cloud API and Twilio adapters fill it.
  it('keeps the payload of a quick reply the contact tapped', async () => {
    expect(await parseMessenger('messenger-text-quick-reply.json')).toEqual([
      message(PSID, {
        externalId: 'mid.1457764197618:41d102a3e1ae206a38',
        text: 'hello, world!',
        button: { text: 'hello, world!', payload: '<DEVELOPER_DEFINED_PAYLOAD>' },
        at: new Date(1458692752478),
      }),
    ]);
  });

  it('names the message a reply answers', async () => {
    expect(await parseMessenger('messenger-reply.json')).toEqual([
      message(PSID, {
        externalId: 'm_1457764197618:41d102a3e1ae206a38',
        text: 'hello, world!',
        contextExternalId: 'm_1fTq8oLumEyIp3Q2MR-aY7IfLZDamVrALniheU',
        at: new Date(1458692752478),
      }),
    ]);
  });

  it('takes an image attachment as a file at its CDN address', async () => {
    expect(await parseMessenger('messenger-image.json')).toEqual([
      message(PSID, {
        externalId: 'mid.$cAAJdkrCd2ORnva8ErFhjGm0X_Q_c',
        text: '',
        media: {
          ref: 'https://scontent.xx.fbcdn.net/v/t1.15752-9/photo.jpg?_nc_cat=1',
          contentType: 'image/jpeg',
          filename: null,
          caption: null,
          voice: false,
        },
        at: new Date(1518479195308),
      }),
    ]);
  });

  // The page documents a `sticker` attachment type (payload url and sticker_id), the only one sent
  // for stickers after the transition ending 2026-08-30: the sticker is its image.
  it('takes a sticker attachment as an image file', async () => {
    const [event] = await parseMessenger('messenger-sticker.json');
    expect(event).toMatchObject({
      kind: 'message',
      text: '',
      media: { ref: 'https://scontent.xx.fbcdn.net/v/t39.1997-6/like_sticker.png?_nc_cat=1' },
    });
  });

  it('keeps one message for a sticker sent both as `sticker` and as the former `image` attachment (the transition)', async () => {
    const body = JSON.parse(fixture('messenger-sticker.json')) as {
      entry: { messaging: { message: { attachments: { type: string; payload: object }[] } }[] }[];
    };
    const sticker = body.entry[0]!.messaging[0]!.message.attachments[0]!;
    body.entry[0]!.messaging[0]!.message.attachments = [{ type: 'image', payload: sticker.payload }, sticker];
    const events = await messenger.parseWebhook({ rawBody: JSON.stringify(body), contentType: 'application/json' }, messengerChannel);
    expect(events).toEqual([
      message(PSID, {
        externalId: 'mid.$cAAJdkrCd2ORnva8ErFhjGm0X_Q_c',
        text: '',
        media: {
          ref: 'https://scontent.xx.fbcdn.net/v/t39.1997-6/like_sticker.png?_nc_cat=1',
          contentType: 'image/png',
          filename: null,
          caption: null,
          voice: false,
        },
        at: new Date(1518479195308),
      }),
    ]);
  });

  it('keeps a shared link (fallback attachment) as the text followed by its title and address', async () => {
    expect(await parseMessenger('messenger-fallback.json')).toEqual([
      message(PSID, {
        externalId: 'm_toDnmD...',
        text: 'This is where I want to go: https://youtu.be/bbo_fZAjIhg\nTAHITI - Heaven on Earth\nhttps://l.facebook.com/l.php?u=https%3A%2F%2Fyoutu.be%2Fbbo_fZAjIhg',
        at: new Date(1583173666767),
      }),
    ]);
  });

  it('keeps a shared post as its title and address', async () => {
    expect(await parseMessenger('messenger-post.json')).toEqual([
      message(PSID, {
        externalId: 'mid.$cAAJdkrCd2ORnva8ErFhjGm0X_Q_c',
        text: 'Summer collection is here\nhttps://www.facebook.com/682498302938465/posts/1029384756102938',
        at: new Date(1518479195308),
      }),
    ]);
  });

  it('keeps an appointment booking as unsupported content naming its type', async () => {
    expect(await parseMessenger('messenger-appointment-booking.json')).toEqual([
      message(PSID, {
        externalId: 'mid.$cAAJdkrCd2ORnva8ErFhjGm0X_Q_c',
        text: '',
        details: { type: 'unsupported', raw_type: 'appointment_booking' },
        at: new Date(1518479195308),
      }),
    ]);
  });

  it("ignores the page's own messages (echoes)", async () => {
    expect(await parseMessenger('messenger-echo.json')).toEqual([]);
  });

  it('keeps a reaction by its emoji, naming the message reacted to', async () => {
    const mid = 'mid.1457764197618:41d102a3e1ae206a38';
    expect(await parseMessenger('messenger-reaction.json')).toEqual([
      message(PSID, {
        externalId: `reaction:${mid}:${PSID}:1458668856463:react`,
        text: '❤️',
        contextExternalId: mid,
        details: { type: 'reaction', emoji: '❤️' },
        at: new Date(1458668856463),
      }),
    ]);
    // Taken back (action unreact, no emoji): a reaction without emoji, as the Cloud API's.
    const unreact = fixture('messenger-reaction.json')
      .replace('"react"', '"unreact"')
      .replace(/"emoji": "[^"]*",\s*/, '');
    expect(await messenger.parseWebhook({ rawBody: unreact, contentType: 'application/json' }, messengerChannel)).toEqual([
      message(PSID, {
        externalId: `reaction:${mid}:${PSID}:1458668856463:unreact`,
        text: '',
        contextExternalId: mid,
        details: { type: 'reaction', emoji: '' },
        at: new Date(1458668856463),
      }),
    ]);
  });
});

describe('Messenger Platform documented webhook events: postbacks, reads and deliveries', () => {
  it('keeps a postback (Get Started, a menu button) as its title, with its payload', async () => {
    expect(await parseMessenger('messenger-postback.json')).toEqual([
      message(PSID, {
        externalId: 'm_1457764197618:41d102a3e1ae206a38',
        text: 'TITLE-FOR-THE-CTA',
        details: { type: 'postback', payload: 'USER-DEFINED-PAYLOAD' },
        at: new Date(1458692752478),
      }),
    ]);
  });

  // The current postback reference shows a sender known by `user_ref` (a chat plugin visitor) and
  // says every property is a string, timestamp included ("1527459824", seconds).
  it("reads the reference's postback from a chat plugin visitor (user_ref, string timestamp)", async () => {
    expect(await parseMessenger('messenger-postback-chat-plugin.json')).toEqual([
      message('USER-REF-ID', {
        externalId: 'm_MESSAGE-ID',
        text: 'TITLE-FOR-THE-CTA',
        details: { type: 'postback', payload: 'USER-DEFINED-PAYLOAD' },
        at: new Date(1527459824 * 1000),
      }),
    ]);
  });

  it('takes a read watermark as "read up to" for the contact', async () => {
    expect(await parseMessenger('messenger-read.json')).toEqual([{ kind: 'read-up-to', sender: PSID, at: new Date(1458668856253) }]);
  });

  it('takes a delivery receipt as a delivered status per mid, at the watermark', async () => {
    expect(await parseMessenger('messenger-delivery.json')).toEqual([
      { kind: 'status', externalId: 'mid.1458668856218:ed81099e15d3f4f233', status: 'delivered', error: null, at: new Date(1458668856253) },
    ]);
  });
});

describe('Instagram messaging documented webhook notifications', () => {
  it('takes a text message from the Instagram-scoped id', async () => {
    expect(await parseInstagram('instagram-text.json')).toEqual([
      message(IGSID, { externalId: IG_MID, text: 'Hi! Do you ship to Lisbon?', at: new Date(1569262485349) }),
    ]);
  });

  it("keeps a story mention with the story's media", async () => {
    expect(await parseInstagram('instagram-story-mention.json')).toEqual([
      message(IGSID, {
        externalId: IG_MID,
        text: '',
        media: {
          ref: 'https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=17962830125841302&signature=AbzX',
          contentType: null,
          filename: null,
          caption: null,
          voice: false,
        },
        details: { type: 'story_mention' },
        at: new Date(1569262485349),
      }),
    ]);
  });

  it('keeps a reply to a story with its text, naming the story', async () => {
    expect(await parseInstagram('instagram-story-reply.json')).toEqual([
      message(IGSID, {
        externalId: IG_MID,
        text: 'Love this one!',
        details: {
          type: 'story_reply',
          story_url: 'https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=17962830125841302&signature=AbzX',
        },
        at: new Date(1569262485349),
      }),
    ]);
  });

  it('keeps an unsupported message naming it, and drops an unsent (deleted) one', async () => {
    expect(await parseInstagram('instagram-unsupported.json')).toEqual([
      message(IGSID, { externalId: IG_MID, text: '', details: { type: 'unsupported', raw_type: 'message' }, at: new Date(1569262485349) }),
    ]);
    expect(await parseInstagram('instagram-deleted.json')).toEqual([]);
  });

  it('keeps an icebreaker postback as its title, with its payload', async () => {
    expect(await parseInstagram('instagram-postback.json')).toEqual([
      message(IGSID, {
        externalId: IG_MID,
        text: 'What are your opening hours?',
        details: { type: 'postback', payload: 'ICEBREAKER_HOURS' },
        at: new Date(1502905976377),
      }),
    ]);
  });

  it('takes "seen" as the read status of the named message', async () => {
    expect(await parseInstagram('instagram-seen.json')).toEqual([
      {
        kind: 'status',
        externalId: 'aWdfZAG1faXRlbToxOklHTWVzc2FnZAUlEOjE3ODQxNDA1MzA5MjExODQ0OjMyMDAw',
        status: 'read',
        error: null,
        at: new Date(1569262485349),
      },
    ]);
  });

  it('keeps a reaction by its emoji, naming the message reacted to', async () => {
    const mid = 'aWdfZAG1faXRlbToxOklHTWVzc2FnZAUlEOjE3ODQxNDA1MzA5MjExODQ0OjMyMDAw';
    expect(await parseInstagram('instagram-reaction.json')).toEqual([
      message(IGSID, {
        externalId: `reaction:${mid}:${IGSID}:1569262485349:react`,
        text: '❤️',
        contextExternalId: mid,
        details: { type: 'reaction', emoji: '❤️' },
        at: new Date(1569262485349),
      }),
    ]);
  });

  it('acknowledges edits without messages', async () => {
    expect(await parseInstagram('instagram-message-edit.json')).toEqual([]);
  });
});
