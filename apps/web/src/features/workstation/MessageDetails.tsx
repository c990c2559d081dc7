import { mapLink, messageDetailsOf, type Message } from '@atende/contract';
import { Anchor, Text } from '@mantine/core';
import { IconAddressBook, IconAlertTriangle, IconMapPin } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * What a contact's message holds besides its text, worded in the agent's language: the label of a
 * location, a contact card, a pressed button, a reaction, a story, or a kind the desk cannot show;
 * and the note of a file that was not kept. The message text (map link, card) is shown as usual.
 */
export function MessageDetailsLabel({ message }: { message: Message }) {
  const { t } = useTranslation();
  const { details, leftOut } = messageDetailsOf(message.interactive_content);
  const label = (() => {
    if (!details) return null;
    switch (details.type) {
      case 'location':
        return (
          <Anchor href={mapLink(details.latitude, details.longitude)} target="_blank" rel="noreferrer" size="xs">
            <IconMapPin size={12} aria-hidden /> {t('Shared location')}
          </Anchor>
        );
      case 'contact':
        return (
          <>
            <IconAddressBook size={12} aria-hidden /> {t('Shared contact')}
          </>
        );
      case 'postback':
        return t('Pressed a button');
      case 'reaction':
        return details.emoji ? t('Reacted with {{emoji}}', { emoji: details.emoji }) : t('Took a reaction back');
      case 'story_mention':
        return t('Mentioned you in their story');
      case 'story_reply':
        return details.story_url ? (
          <Anchor href={details.story_url} target="_blank" rel="noreferrer" size="xs">
            {t('Replied to your story')}
          </Anchor>
        ) : (
          t('Replied to your story')
        );
      case 'unsupported':
        return (
          <>
            <IconAlertTriangle size={12} aria-hidden />{' '}
            {t('A kind of message this desk cannot show ({{type}})', { type: details.raw_type })}
          </>
        );
    }
  })();
  return (
    <>
      {label && (
        <Text size="xs" c="dimmed" mb={2} data-testid="message-details">
          {label}
        </Text>
      )}
      {leftOut && (
        <Text size="xs" c="orange" data-testid="message-left-out">
          {leftOut.refused_type
            ? t('An attachment of a type that is not accepted ({{type}}) was left out', { type: leftOut.refused_type })
            : t('The media of this message could not be downloaded')}
        </Text>
      )}
    </>
  );
}
