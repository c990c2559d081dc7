import type { OutboundMessage, OutboundTemplate } from '@atende/channels';
import type { Template } from '@atende/contract';
import { renderTemplateText, templateParameterSlots } from '@atende/core';

/** The provider's template message for one subscriber: parameters by slot (core templateParameterSlots). */
export function subscriberMessage(
  template: Template,
  subscriber: { id: string; phoneNumber: string; parameters: string[] },
  campaignId: string,
): OutboundMessage {
  const slots = templateParameterSlots(template.config.components);
  const value = (i: number) => subscriber.parameters[i] ?? '';
  const header = slots.flatMap((s, i) => (s.part === 'header' ? [value(i)] : []));
  const body = slots.flatMap((s, i) => (s.part === 'body' ? [value(i)] : []));
  const urlButtons = slots.flatMap((s, i) => (s.part === 'url' ? [{ index: s.button, text: value(i) }] : []));
  const media = template.config.components.find((c) => c.type === 'HEADER');
  const outbound: OutboundTemplate = {
    name: template.name,
    language: template.config.language,
    header: header.length
      ? { format: 'TEXT', value: header[0]! }
      : media?.type === 'HEADER' && media.format !== 'TEXT' && media.format !== 'LOCATION' && media.example?.header_handle?.[0]
        ? { format: media.format, value: media.example.header_handle[0] }
        : null,
    body,
    urlButtons,
  };
  const bodyText = template.config.components.find((c) => c.type === 'BODY');
  return {
    // The subscriber's id is the send's idempotency key toward the provider.
    uuid: subscriber.id,
    conversationUuid: campaignId,
    content: renderTemplateText(bodyText?.type === 'BODY' ? bodyText.text : '', body),
    annex: null,
    author: 'USER',
    createdAt: new Date(),
    contact: { uuid: subscriber.id, phoneNumber: subscriber.phoneNumber, identifier: null },
    template: outbound,
  };
}
