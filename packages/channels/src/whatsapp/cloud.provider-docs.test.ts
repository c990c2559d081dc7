import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChannelTarget } from '../adapter';
import type { InboundEvent, ProviderChannelAdapter } from '../provider';
import { WhatsAppCloudAdapter } from './cloud';
import { WhatsApp360DialogAdapter } from './dialog360';

/**
 * Contract tests against the webhook examples of Meta's WhatsApp Cloud API reference
 * (fixtures/provider-docs/whatsapp-cloud, whose README names each page). 360dialog's Cloud API
 * channels receive the same bodies, so every fixture runs through both adapters. A test marked
 * `it.fails` states what a correct parse would be and fails today; its comment says what is wrong.
 */

const cloudChannel: ChannelTarget = {
  uuid: 'ch-cloud',
  type: 'whatsapp_cloud',
  config: { phone_number_id: '106540352242922', waba_id: '102290129340398' },
  credentials: { access_token: 'EAAGdocs-token', app_secret: 'docs-app-secret', verify_token: 'docs-verify' },
};
const dialogChannel: ChannelTarget = {
  uuid: 'ch-360dialog',
  type: 'whatsapp_360dialog',
  config: { api_version: 'cloud' },
  credentials: { api_key: 'docs-api-key', webhook_secret: 'docs-webhook-secret' },
};
const adapters: [string, ProviderChannelAdapter, ChannelTarget][] = [
  ['WhatsApp Cloud API adapter', new WhatsAppCloudAdapter(), cloudChannel],
  ['360dialog adapter (Cloud API channel)', new WhatsApp360DialogAdapter(), dialogChannel],
];

const fixture = (name: string) => readFileSync(new URL(`../fixtures/provider-docs/whatsapp-cloud/${name}`, import.meta.url), 'utf8');

type MessageEvent = Extract<InboundEvent, { kind: 'message' }>;
/** A message of the documentation's WhatsApp user, Sheena Nelson (wa_id 16505551234). */
const message = (fields: Partial<MessageEvent> & Pick<MessageEvent, 'externalId' | 'at'>): InboundEvent => ({
  kind: 'message',
  from: '+16505551234',
  profileName: 'Sheena Nelson',
  text: null,
  media: null,
  button: null,
  contextExternalId: null,
  ...fields,
});
const at = (seconds: number) => new Date(seconds * 1000);
/** The message the documented reply-button and list examples answer. */
const INTERACTIVE_SOURCE = 'wamid.HBgLMTQxMjU1NTA4MjkVAgASGBQzQUNCNjk5RDUwNUZGMUZEM0VBRAA=';

describe.each(adapters)('WhatsApp Cloud API documented webhooks through the %s', (_name, adapter, channel) => {
  const parse = async (name: string) => adapter.parseWebhook({ rawBody: fixture(name), contentType: 'application/json' }, channel);

  it('takes a text message with the sender in E.164 and the profile name', async () => {
    expect(await parse('text.json')).toEqual([
      message({
        externalId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=',
        text: 'Does it come in another color?',
        at: at(1749416383),
      }),
    ]);
  });

  it('takes a "Message business" product question as text naming the product message it came from', async () => {
    expect(await parse('text-product-inquiry.json')).toEqual([
      message({
        externalId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTA2NTUwRkNEMDdFQjJCRUU0NQA=',
        text: 'Is this still available?',
        contextExternalId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgARGA9wcm9kdWN0X2lucXVpcnkA',
        at: at(1750016800),
      }),
    ]);
  });

  it('takes an image by its media id, type and caption', async () => {
    expect(await parse('image.json')).toEqual([
      message({
        externalId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=',
        media: { ref: '1003383421387256', contentType: 'image/jpeg', filename: null, caption: 'Taj Mahal' },
        at: at(1744344496),
      }),
    ]);
  });

  it("takes a template's quick-reply button with its text and payload, naming the template message", async () => {
    expect(await parse('button.json')).toEqual([
      message({
        externalId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUFERjg0NDEzNDdFODU3MUMxMAA=',
        button: { text: 'Unsubscribe', payload: 'Unsubscribe' },
        contextExternalId: INTERACTIVE_SOURCE,
        at: at(1750091045),
      }),
    ]);
  });

  it('takes interactive list and reply-button answers as buttons (title and id)', async () => {
    expect(await parse('interactive-list-reply.json')).toEqual([
      message({
        externalId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUFERjg0NDEzNDdFODU3MUMxMAA=',
        button: { text: 'Priority Mail Express', payload: 'priority_express' },
        contextExternalId: INTERACTIVE_SOURCE,
        at: at(1749854575),
      }),
    ]);
    expect(await parse('interactive-button-reply.json')).toEqual([
      message({
        externalId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTZBQzg0MzQ4QjRCM0NGNkVGOAA=',
        button: { text: 'Cancel', payload: 'cancel-button' },
        contextExternalId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBI3MEM2RUJFNkI0RENGQTVDRjUA',
        at: at(1750025136),
      }),
    ]);
  });

  it('keeps a location as its name, address and map link', async () => {
    expect(await parse('location.json')).toEqual([
      message({
        externalId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUFERjg0NDEzNDdFODU3MUMxMAA=',
        text: 'Philz Coffee\n101 Forest Ave, Palo Alto, CA 94301\nhttps://www.openstreetmap.org/?mlat=37.44221496582&mlon=-122.16165924072#map=17/37.44221496582/-122.16165924072',
        details: {
          type: 'location',
          latitude: 37.44221496582,
          longitude: -122.16165924072,
          name: 'Philz Coffee',
          address: '101 Forest Ave, Palo Alto, CA 94301',
        },
        at: at(1744344496),
      }),
    ]);
  });

  it('keeps a shared contact as a card with its formatted name and phone', async () => {
    expect(await parse('contacts.json')).toEqual([
      message({
        externalId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=',
        text: 'Barbara J. Johnson\n+1 (415) 555-0829',
        details: { type: 'contact', name: 'Barbara J. Johnson', phones: ['+1 (415) 555-0829'], emails: [] },
        at: at(1744344496),
      }),
    ]);
  });

  it('keeps an unsupported message as unsupported content', async () => {
    expect(await parse('unsupported.json')).toEqual([
      message({
        externalId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUFERjg0NDEzNDdFODU3MUMxMAA=',
        text: '',
        details: { type: 'unsupported', raw_type: 'edit' },
        at: at(1750090702),
      }),
    ]);
  });

  // The reference names what the contact sent in `unsupported.type` ("edit" here; poll, order, pin,
  // ...): the agent is told what kind of message it could not see (as the Telegram adapter names it).
  it('names the kind of an unsupported message (unsupported.type)', async () => {
    const [event] = await parse('unsupported.json');
    expect(event).toMatchObject({ details: { type: 'unsupported', raw_type: 'edit' } });
  });

  it('reads sent, delivered (with the callback data we sent), read and failed statuses', async () => {
    const id = 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUFERjg0NDEzNDdFODU3MUMxMAA=';
    expect(await parse('status-sent.json')).toEqual([{ kind: 'status', externalId: id, status: 'sent', error: null, at: at(1750030073) }]);
    expect(await parse('status-delivered.json')).toEqual([
      { kind: 'status', externalId: id, status: 'delivered', error: null, at: at(1750030081), callbackData: '1744434060' },
    ]);
    expect(await parse('status-read.json')).toEqual([{ kind: 'status', externalId: id, status: 'read', error: null, at: at(1750030095) }]);
    expect(await parse('status-failed.json')).toEqual([
      {
        kind: 'status',
        externalId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBI0QUQ2MjA4NEYyRkExNjMyREUA',
        status: 'failed',
        error: { code: '131049', title: 'This message was not delivered to maintain healthy ecosystem engagement.' },
        at: at(1751142888),
      },
    ]);
  });
});
