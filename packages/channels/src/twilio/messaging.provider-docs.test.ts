import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChannelTarget } from '../adapter';
import type { InboundEvent, ProviderChannelAdapter } from '../provider';
import { SmsTwilioAdapter } from '../sms/adapter';
import { WhatsAppTwilioAdapter } from '../whatsapp/twilio';

/**
 * Contract tests against Twilio's documented webhook requests (fixtures/provider-docs/twilio, whose
 * README names each document), for both adapters on Twilio's Messaging webhooks: SMS/MMS and
 * WhatsApp. Twilio documents parameter tables with example values rather than whole bodies, so most
 * fixtures are built from those tables. A test marked `it.fails` states what a correct parse would
 * be and fails today; its comment says what is wrong.
 */

const ACCOUNT = `AC${'X'.repeat(32)}`;
const sms: ProviderChannelAdapter = new SmsTwilioAdapter();
const whatsapp: ProviderChannelAdapter = new WhatsAppTwilioAdapter();
const smsChannel: ChannelTarget = {
  uuid: 'ch-sms',
  type: 'sms',
  config: { account_sid: ACCOUNT, from_number: '+15558675310' },
  credentials: { auth_token: 'docs-token' },
};
const whatsappChannel: ChannelTarget = { ...smsChannel, uuid: 'ch-whatsapp-twilio', type: 'whatsapp_twilio' };

// The files end with a newline for the editor's sake; a request body has none.
const fixture = (name: string) => readFileSync(new URL(`../fixtures/provider-docs/twilio/${name}`, import.meta.url), 'utf8').trimEnd();
const request = (name: string) => ({ rawBody: fixture(name), contentType: 'application/x-www-form-urlencoded' });
const parseSms = async (name: string) => sms.parseWebhook(request(name), smsChannel);
const parseWhatsApp = async (name: string) => whatsapp.parseWebhook(request(name), whatsappChannel);

// Twilio's requests carry no time of the message: the adapters stamp the time they read it.
const NOW = new Date('2026-11-25T10:32:00Z');
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
});

const SM = `SM${'X'.repeat(32)}`;
const MM = `MM${'X'.repeat(32)}`;
const media = (me: string) => `https://api.twilio.com/2010-04-01/Accounts/${ACCOUNT}/Messages/${MM}/Media/${me}`;
const BODY = "Ahoy! Let's build something amazing.";
/** The outbound message of the status callback examples. */
const SENT_SID = 'SM1342fe1b2c904d1ab04f0fc7a58abca9';

const message = (fields: Partial<Extract<InboundEvent, { kind: 'message' }>>): InboundEvent => ({
  kind: 'message',
  externalId: SM,
  from: '+14017122661',
  profileName: null,
  text: null,
  media: null,
  button: null,
  contextExternalId: null,
  at: NOW,
  ...fields,
});
const status = (fields: Partial<Extract<InboundEvent, { kind: 'status' }>>): InboundEvent => ({
  kind: 'status',
  externalId: SENT_SID,
  status: 'sent',
  error: null,
  at: NOW,
  ...fields,
});

describe('Twilio SMS/MMS documented webhook requests (SMS adapter)', () => {
  it('takes an inbound SMS as a message from the sender number, identified by MessageSid', async () => {
    expect(await parseSms('sms-inbound.txt')).toEqual([message({ text: BODY })]);
  });

  it('takes an MMS image as a Twilio-hosted file, the body as its caption', async () => {
    expect(await parseSms('mms-inbound.txt')).toEqual([
      message({ externalId: MM, media: { ref: media(`ME${'X'.repeat(32)}`), contentType: 'image/jpeg', filename: null, caption: BODY } }),
    ]);
  });

  it('makes every medium of an MMS a message of its own, the body on the first', async () => {
    expect(await parseSms('mms-inbound-two-media.txt')).toEqual([
      message({ externalId: MM, media: { ref: media(`ME${'X'.repeat(32)}`), contentType: 'image/jpeg', filename: null, caption: BODY } }),
      message({
        externalId: `${MM}/1`,
        media: { ref: media(`ME${'Y'.repeat(32)}`), contentType: 'image/jpeg', filename: null, caption: null },
      }),
    ]);
  });

  it('reads the documented "sent" status callback, and built delivered / undelivered / failed ones with ErrorCode', async () => {
    expect(await parseSms('status-sent.txt')).toEqual([status({ status: 'sent' })]);
    expect(await parseSms('status-delivered.txt')).toEqual([status({ status: 'delivered' })]);
    // SMS status callbacks carry ErrorCode only (no error text): the title names the code.
    expect(await parseSms('status-undelivered.txt')).toEqual([
      status({ status: 'failed', error: { code: '30003', title: 'Twilio error 30003' } }),
    ]);
    expect(await parseSms('status-failed.txt')).toEqual([
      status({ status: 'failed', error: { code: '30008', title: 'Twilio error 30008' } }),
    ]);
  });
});

describe('Twilio WhatsApp documented webhook requests (WhatsApp Twilio adapter)', () => {
  it('takes a WhatsApp text with the sender number (without the whatsapp: prefix) and profile name', async () => {
    expect(await parseWhatsApp('whatsapp-inbound-text.txt')).toEqual([message({ text: BODY, profileName: 'Perspective Coffee' })]);
  });

  it('takes a WhatsApp image as a Twilio-hosted file, the body as its caption', async () => {
    expect(await parseWhatsApp('whatsapp-inbound-image.txt')).toEqual([
      message({
        externalId: MM,
        profileName: 'Perspective Coffee',
        media: { ref: media(`ME${'X'.repeat(32)}`), contentType: 'image/jpeg', filename: null, caption: BODY },
      }),
    ]);
  });

  it('takes a pressed button with its text and payload', async () => {
    expect(await parseWhatsApp('whatsapp-inbound-button.txt')).toEqual([
      message({
        text: 'Cancel Appointment',
        profileName: 'Perspective Coffee',
        button: { text: 'Cancel Appointment', payload: 'postback_data_1234' },
      }),
    ]);
  });

  it('names the message a reply answers (OriginalRepliedMessageSid)', async () => {
    expect(await parseWhatsApp('whatsapp-inbound-reply.txt')).toEqual([
      message({ externalId: `SM${'Y'.repeat(32)}`, text: BODY, profileName: 'Perspective Coffee', contextExternalId: SM }),
    ]);
  });

  // A shared location comes as Latitude / Longitude / Address / Label with an empty Body: kept as the
  // Cloud API and Telegram adapters keep a location, a map link with its details.
  it('keeps a shared location as a map link with its name and address', async () => {
    const location = {
      latitude: 51.51322977399644,
      longitude: -0.2197976373036567,
      name: 'The Harrow Club',
      address: '187 Freston Road, London, Greater London W10 6TH',
    };
    expect(await parseWhatsApp('whatsapp-inbound-location.txt')).toEqual([
      message({
        profileName: 'Perspective Coffee',
        text: `The Harrow Club\n187 Freston Road, London, Greater London W10 6TH\nhttps://www.openstreetmap.org/?mlat=${location.latitude}&mlon=${location.longitude}#map=17/${location.latitude}/${location.longitude}`,
        details: { type: 'location', ...location },
      }),
    ]);
  });

  it('reads a read receipt and a failed status with its error code', async () => {
    expect(await parseWhatsApp('whatsapp-status-read.txt')).toEqual([status({ status: 'read' })]);
    const [failed] = await parseWhatsApp('whatsapp-status-failed.txt');
    expect(failed).toMatchObject({ kind: 'status', externalId: SENT_SID, status: 'failed', error: { code: '63016' } });
  });

  // For WhatsApp, Twilio puts the channel's own error text in ChannelStatusMessage (status callbacks
  // are not documented to carry ErrorMessage): the agent reads WhatsApp's reason.
  it("titles a failed WhatsApp status with the channel's error text (ChannelStatusMessage)", async () => {
    expect(await parseWhatsApp('whatsapp-status-failed.txt')).toEqual([
      status({
        status: 'failed',
        error: {
          code: '63016',
          title: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
        },
      }),
    ]);
  });
});
